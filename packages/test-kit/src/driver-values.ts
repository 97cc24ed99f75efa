/**
 * A driver `Db` seen through the store's `bson` (7.x): every BSON value a suite passes is rebuilt
 * with the driver's own classes first (driver 6 refuses values of another major:
 * `BSONVersionError`), and every value it answers is rebuilt with the store's classes (the
 * driver's are another copy: driver 7 loads bson's CommonJS build). For suites that call the
 * storage interface directly; the store is given the driver's `Db` itself (it converts its own).
 */
import type { StoreCollection, StoreDb } from '@store/common';
import * as storeBson from 'bson';

/** The key under which every BSON value (bson 5 and later) tells its major. */
const BSON_MAJOR = Symbol.for('@@mdb.bson.version');

/** The parts of a driver's `BSON` namespace the conversion uses. */
export interface DriverBsonModule {
  ObjectId: new () => object;
  serialize(doc: Record<string, unknown>): Uint8Array;
  deserialize(bytes: Uint8Array): Record<string, unknown>;
}

const isBsonValue = (value: object): value is { _bsontype: string; [BSON_MAJOR]?: unknown } =>
  typeof (value as { _bsontype?: unknown })._bsontype === 'string';

/** Rebuilds every BSON value inside a value for which `foreign` holds, through `rebuild`. */
function converter(foreign: (value: object) => boolean, rebuild: (value: object) => unknown) {
  const convert = (value: unknown): unknown => {
    if (typeof value !== 'object' || value === null || value instanceof Date || value instanceof RegExp) {
      return value;
    }
    if (isBsonValue(value)) return foreign(value) ? rebuild(value) : value;
    if (Array.isArray(value)) return value.map(convert);
    const prototype = Object.getPrototypeOf(value);
    if (prototype !== Object.prototype && prototype !== null) return value;
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, convert(item)]));
  };
  return convert;
}

/** The store's class for a BSON type name (`ObjectId`, `Long`, ...), if it exports one. */
const storeClass = (value: { _bsontype: string }): unknown =>
  (storeBson as unknown as Record<string, unknown>)[value._bsontype];

/** A result (a promise, a cursor's `toArray`, a value) with its values rebuilt by `convert`. */
function converted(result: unknown, convert: (value: unknown) => unknown): unknown {
  if (result instanceof Promise) return result.then(convert);
  const cursor = result as { toArray?: unknown } | null;
  if (typeof cursor?.toArray === 'function') {
    const toArray = cursor.toArray as () => Promise<unknown>;
    return { toArray: () => toArray.call(cursor).then(convert) };
  }
  return result;
}

/** `db` taking the store's BSON values in every collection method's arguments. */
export function convertingDb(db: StoreDb, bson: DriverBsonModule): StoreDb {
  const major = (new bson.ObjectId() as { [BSON_MAJOR]?: unknown })[BSON_MAJOR];
  const send = converter(
    (value) => (value as { [BSON_MAJOR]?: unknown })[BSON_MAJOR] !== major,
    (value) => bson.deserialize(storeBson.serialize({ v: value })).v,
  );
  const receive = converter(
    (value) => storeClass(value as { _bsontype: string }) !== value.constructor,
    (value) => storeBson.deserialize(bson.serialize({ v: value })).v,
  );
  return {
    collection(name) {
      const raw = db.collection(name);
      return new Proxy(raw, {
        get(target, property) {
          const member = Reflect.get(target, property, target) as unknown;
          if (typeof member !== 'function') return member;
          return (...args: unknown[]) => converted(member.apply(target, args.map(send)), receive);
        },
      }) as StoreCollection;
    },
  };
}
