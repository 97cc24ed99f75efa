/**
 * The application's `bson`: the one its `mongodb` driver serializes with.
 * The store builds ObjectIds and other BSON values with its own `bson` (7.x); a driver of another
 * major refuses them (`BSONVersionError: bson types must be from bson 6.x.x`). So every value
 * the store sends through a driver is rebuilt with the driver's classes, found from the `Db`
 * itself: its client's primary-key factory makes the driver's ObjectId, and the module that
 * exports that class (already loaded by the driver) has the rest.
 */
import { createRequire } from 'node:module';
import { BSON } from 'bson';

/** The key under which every BSON value (bson 5 and later) tells its major; a serializer refuses other majors. */
const BSON_MAJOR = Symbol.for('@@mdb.bson.version');

/** A value of a BSON class (ObjectId, Decimal128, Long, Binary, ...), of any `bson` copy. */
interface BsonValue {
  readonly _bsontype: string;
  readonly [BSON_MAJOR]?: unknown;
}

/** The parts of a driver's `bson` the conversion uses. */
interface DriverBson {
  /** The major every value must carry. */
  readonly major: unknown;
  readonly ObjectId: new (id: Uint8Array) => BsonValue;
  /** Absent when only the ObjectId class could be found. */
  readonly deserialize?: (bytes: Uint8Array) => Record<string, unknown>;
}

/** The part of a driver `Db` the lookup reads (public API of drivers 6 and 7). */
interface DriverDbShape {
  readonly client?: { readonly options?: { readonly pkFactory?: { createPk(): unknown } } };
}

const isBsonValue = (value: unknown): value is BsonValue =>
  typeof value === 'object' && value !== null && typeof (value as BsonValue)._bsontype === 'string';

/** The loaded module that exports this ObjectId class with a `deserialize` (the driver's `bson`), if any. */
function moduleExporting(objectId: unknown): DriverBson['deserialize'] {
  // Node's one module cache; any `require` reaches it (no import.meta: this also builds as CommonJS).
  const cache = createRequire(`${process.cwd()}/`).cache;
  for (const loaded of Object.values(cache)) {
    const exports = loaded?.exports as Record<string, unknown> | undefined;
    if (exports === undefined || exports.ObjectId !== objectId) continue;
    if (typeof exports.deserialize === 'function') return exports.deserialize as DriverBson['deserialize'];
    const nested = exports.BSON as Record<string, unknown> | undefined;
    if (typeof nested?.deserialize === 'function') return nested.deserialize as DriverBson['deserialize'];
  }
  return undefined;
}

/**
 * The driver's `bson` behind a `Db`; undefined when it is of the store's own major (nothing to
 * convert) or its ObjectId class cannot be found (a custom `pkFactory`).
 */
export function driverBsonOf(db: DriverDbShape): DriverBson | undefined {
  const made = db.client?.options?.pkFactory?.createPk();
  if (!isBsonValue(made) || made._bsontype !== 'ObjectId') return undefined;
  const major = made[BSON_MAJOR];
  if (major === (new BSON.ObjectId() as unknown as BsonValue)[BSON_MAJOR]) return undefined;
  const ObjectId = made.constructor as DriverBson['ObjectId'];
  return { major, ObjectId, deserialize: moduleExporting(ObjectId) };
}

/** One BSON value rebuilt with the driver's classes. */
function convertValue(value: BsonValue, driver: DriverBson): unknown {
  if (value._bsontype === 'ObjectId') return new driver.ObjectId((value as unknown as { id: Uint8Array }).id);
  if (driver.deserialize === undefined) return value;
  return driver.deserialize(BSON.serialize({ v: value })).v;
}

/**
 * `value` with every BSON value of another `bson` copy rebuilt with the driver's; plain objects
 * and arrays are copied only where something inside them changed.
 */
export function toDriverBson<T>(value: T, driver: DriverBson): T {
  return convert(value, driver) as T;
}

function convert(value: unknown, driver: DriverBson): unknown {
  if (typeof value !== 'object' || value === null || value instanceof Date || value instanceof RegExp) {
    return value;
  }
  if (isBsonValue(value)) {
    return value[BSON_MAJOR] === driver.major ? value : convertValue(value, driver);
  }
  if (Array.isArray(value)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const converted = convert(value[i], driver);
      if (converted === value[i]) continue;
      out ??= value.slice();
      out[i] = converted;
    }
    return out ?? value;
  }
  let out: Record<string, unknown> | undefined;
  for (const key of Object.keys(value)) {
    const item = (value as Record<string, unknown>)[key];
    const converted = convert(item, driver);
    if (converted === item) continue;
    out ??= { ...(value as Record<string, unknown>) };
    out[key] = converted;
  }
  return out ?? value;
}
