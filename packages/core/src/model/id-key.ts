/**
 * Keys of ids and scalar values: equal keys for values MongoDB's equality matches (`1` and `1.0`;
 * an ObjectId by its hex), `undefined` for values that have no such key (objects, arrays, dates...).
 * Per-client limits key users by id; the change feed keys documents and subscribers with them.
 */
interface IdLike {
  readonly _bsontype: string;
  toHexString(): string;
}

const isObjectId = (value: unknown): value is IdLike =>
  typeof value === 'object' &&
  value !== null &&
  (value as Partial<IdLike>)._bsontype === 'ObjectId' &&
  typeof (value as Partial<IdLike>).toHexString === 'function';

/** The key of a scalar value; `undefined` for one that has none. */
export function equalityKey(value: unknown): string | undefined {
  switch (typeof value) {
    case 'string':
      return `s${value}`;
    case 'number':
      return Number.isNaN(value) ? undefined : `n${value === 0 ? 0 : value}`;
    case 'boolean':
      return value ? 'b1' : 'b0';
    default:
      return isObjectId(value) ? `o${value.toHexString()}` : undefined;
  }
}

/** A key of any `_id`: its {@link equalityKey}, or its JSON for the rare id that has none. */
export const idKeyOf = (id: unknown): string => equalityKey(id) ?? JSON.stringify(id);
