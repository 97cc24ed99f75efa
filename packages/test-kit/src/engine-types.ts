/** The types of the engine matrix (`engines.ts`, `driver-tier.ts`); types only. */
import type { StoreDb } from '@store/common';

/** A driver-path tier: the official driver of that major over the wire front. */
type DriverTierName = 'driver 6 over embedded' | 'driver 7 over embedded';

/** One engine, as seen by a suite. */
export interface EngineUnderTest {
  name: 'embedded' | 'mongodb' | DriverTierName;
  /** a fresh, empty database */
  createDb(): Promise<StoreDb>;
}

/** Whether and how the driver-path tiers run; a project sets defaults in `packageConfig`. */
export interface DriverTierOptions {
  /**
   * Also run the suite as `[driver 6 over embedded]` and `[driver 7 over embedded]`: the
   * official driver of that major connected to a wire front over the embedded engine.
   * @default the project's (`packageConfig(name, { driverTiers: true })`), else false
   */
  driverTiers?: boolean;
  /**
   * `'as-given'`: `createDb()` is the driver's own `Db`, for suites that hand it to the store
   * (which converts its values for the driver). `'rebuilt'`: for suites that call the storage
   * interface directly with values of the store's `bson`; each is rebuilt with the driver's
   * classes, as an application on that driver builds it.
   * @default the project's, else 'as-given'
   */
  driverValues?: 'as-given' | 'rebuilt';
}

/** Options of `describeEngines`. */
export type DescribeEnginesOptions = DriverTierOptions;
