/**
 * Functions compiled once per shape (the same keys in the same order) that make objects of that
 * shape with one object literal: the fastest way V8 makes them, and laid out as `JSON.parse`
 * lays an object out (its members inside it; one grown member by member keeps them in a
 * separate array). The data directory's columns and json-server's `id` rename use them.
 */

/**
 * Keys a shape may have to be compiled: not `__proto__` (a literal would set the prototype), nor
 * a NUL (a shape is named by its keys joined by NULs).
 */
export const literalKey = (key: string): boolean => key !== '__proto__' && !key.includes('\u0000');

/** Keys a shape may have to be compiled at most (more are rare). */
export const MAX_LITERAL_KEYS = 256;

/** Shapes one {@link ShapeLiterals} compiles at most. */
const MAX_SHAPES = 64;

/** Whether this process compiles code from strings (not under `--disallow-code-generation-from-strings`). */
let compiling = true;

/**
 * The compiled function of each shape met, made from `source(keys)`, a function body over
 * `params`. `source` must write each key as `JSON.stringify(key)`, a JavaScript string literal, so
 * no key can be more than a name.
 */
export class ShapeLiterals<F> {
  readonly #compiled = new Map<string, F>();

  constructor(
    private readonly params: readonly string[],
    private readonly source: (keys: readonly string[]) => string,
  ) {}

  /**
   * The function for `keys`, compiled when first asked; `undefined` (the caller goes key by key)
   * for a key that is not a {@link literalKey}, more than {@link MAX_LITERAL_KEYS} keys, a shape
   * past the first 64, or a process that does not compile code.
   */
  of(keys: readonly string[]): F | undefined {
    if (keys.length > MAX_LITERAL_KEYS || !keys.every(literalKey)) return undefined;
    const shape = keys.join('\u0000');
    const known = this.#compiled.get(shape);
    if (known || !compiling || this.#compiled.size >= MAX_SHAPES) return known;
    let made: F;
    try {
      made = new Function(...this.params, `'use strict'; ${this.source(keys)}`) as F;
    } catch {
      compiling = false; // code generation is disallowed: key by key from now on
      return undefined;
    }
    this.#compiled.set(shape, made);
    return made;
  }
}
