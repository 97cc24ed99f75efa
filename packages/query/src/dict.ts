/** A prototype-free object: keys from user input can never reach `Object.prototype`. */
export function dict<T = unknown>(): Record<string, T> {
  return Object.create(null) as Record<string, T>;
}
