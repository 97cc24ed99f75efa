/**
 * Regex matching in time linear in the text, for every regex the embedded engine runs.
 * JavaScript's RegExp backtracks: `(a|a)*$` over 30 characters takes seconds, and while it
 * runs the process answers no one. Each pattern is therefore matched by RE2 (no backtracking,
 * no lookarounds or backreferences) through `re2js`, a pure-JavaScript port of RE2, wrapped in a
 * RegExp subclass so mingo's own operators (`$in`, `$nin`, `$all`, and `$regex` through `exec`)
 * call it where they would call RegExp.
 *
 * Why re2js: it installs anywhere without a build step and is maintained. The native `re2`
 * addon is faster on long texts but needs a prebuilt binary fetched at install or a C++
 * toolchain (node-gyp) on every machine and platform; `re2-wasm` has seen no release since
 * 2021. Here the texts are stored field values, where re2js's lazy DFA is fast enough
 * (`node bench/regex.mjs` compares an adversarial `$regex` with a plain list).
 */

import { RE2JS } from 're2js';
import { EmbeddedDbError } from './errors';
import { type LiteralTest, literalTest } from './literal-pattern';

/** RE2 flags for the JavaScript flags that change matching; `g`, `y`, `d` only steer `exec` state, `u`/`v` are RE2's default (code points). */
const FLAG_BITS: Readonly<Record<string, number>> = {
  i: RE2JS.CASE_INSENSITIVE,
  m: RE2JS.MULTILINE,
  s: RE2JS.DOTALL,
};

function compile(source: string, flags: string): RE2JS {
  let bits = 0;
  for (const flag of flags) bits |= FLAG_BITS[flag] ?? 0;
  try {
    return RE2JS.compile(source, bits);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new EmbeddedDbError(
      'BadValue',
      `Regular expression cannot run in linear time (RE2 refuses it): /${source}/${flags}: ${why}`,
    );
  }
}

/**
 * A RegExp whose `test` and `exec` run on RE2: same `source` and `flags`, never backtracking.
 * Its `constructor` stays RegExp, so mingo's equality (which compares constructors) still finds
 * it equal to a stored regex with the same source and flags.
 */
export class LinearRegExp extends RegExp {
  static {
    Object.defineProperty(LinearRegExp.prototype, 'constructor', { value: RegExp, writable: true });
  }

  readonly #re2: RE2JS;
  /** A plain-text pattern's string search (see literal-pattern.ts); undefined for a real pattern. */
  readonly #literal: LiteralTest | undefined;

  constructor(source: string, flags: string) {
    super(source, flags);
    this.#re2 = compile(source, flags);
    this.#literal = literalTest(source, flags);
  }

  override test(text: string): boolean {
    const string = String(text);
    return this.#literal?.(string) ?? this.#re2.test(string);
  }

  /** The first match (no `lastIndex` state), shaped like RegExp's, or null. */
  override exec(text: string): RegExpExecArray | null {
    return this.#re2.exec(String(text)) as RegExpExecArray | null;
  }

  /** Every match, left to right, as `String.prototype.matchAll` gives them (one pass over `text`). */
  matches(text: string): IterableIterator<RegExpMatchArray> {
    return this.#re2.matchAll(text);
  }
}

/** Compiled patterns by flags and source: a filter is compiled per request, its patterns once. */
const CACHE = new Map<string, LinearRegExp>();
const CACHE_SIZE = 256;

/** `pattern` (a RegExp, or a `$regex` string) as a {@link LinearRegExp}. */
export function linearRegExp(pattern: RegExp | string, flags = ''): LinearRegExp {
  if (pattern instanceof LinearRegExp) return pattern;
  const [source, kept] = pattern instanceof RegExp ? [pattern.source, pattern.flags] : [pattern, flags];
  const key = `${kept}/${source}`;
  const cached = CACHE.get(key);
  if (cached) return cached;
  const made = new LinearRegExp(source, kept);
  if (CACHE.size >= CACHE_SIZE) CACHE.delete(CACHE.keys().next().value as string);
  CACHE.set(key, made);
  return made;
}

/** An operand with every RegExp member (of an array, or the operand itself) as a {@link LinearRegExp}. */
export function linearMembers<T>(operand: T): T {
  if (operand instanceof RegExp) return linearRegExp(operand) as T;
  if (!Array.isArray(operand) || !operand.some((member) => member instanceof RegExp)) return operand;
  return operand.map((member) => (member instanceof RegExp ? linearRegExp(member) : member)) as T;
}
