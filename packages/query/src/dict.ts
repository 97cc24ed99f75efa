/** A prototype-free object: keys from user input can never reach `Object.prototype`. */
export function dict<T = unknown>(): Record<string, T> {
  return Object.create(null) as Record<string, T>;
}

/** True for `{...}` and `Object.create(null)`, false for arrays, dates, BSON values, class instances. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value) as unknown;
  return proto === Object.prototype || proto === null;
}
