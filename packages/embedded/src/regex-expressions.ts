/**
 * `$regexMatch`, `$regexFind` and `$regexFindAll` (in `$expr`) with their patterns run by RE2
 * ({@link LinearRegExp}), in place of mingo's, which build a backtracking RegExp (and whose
 * `$regexFindAll` copies the rest of the input after each match). Results are shaped as
 * mingo's: `{ match, idx, captures }`, a capture that took no part being null.
 */

import { EmbeddedDbError } from './errors';
import { type LinearRegExp, linearRegExp } from './linear-regex';
import { evalExpr } from './mingo';

type ExpressionOperator = (obj: unknown, expr: unknown, options: unknown) => unknown;

interface Found {
  match: string;
  idx: number;
  captures: (string | null)[];
}

/** The pattern of a `{ input, regex, options }` argument: a string, or a regex whose flags `options` adds to. */
function patternOf(regex: unknown, options: unknown): LinearRegExp {
  const flags = typeof options === 'string' ? options : '';
  if (flags.includes('x'))
    throw new EmbeddedDbError('BadValue', "extended capability option 'x' not supported");
  if (flags.includes('g')) throw new EmbeddedDbError('BadValue', "global option 'g' not supported");
  if (regex instanceof RegExp) return linearRegExp(regex.source, [...new Set(regex.flags + flags)].join(''));
  if (typeof regex !== 'string')
    throw new EmbeddedDbError('BadValue', '$regex operators need a string or regex regex');
  return linearRegExp(regex, flags);
}

function search(obj: unknown, expr: unknown, options: unknown, global: boolean): Found[] {
  const args = evalExpr(obj as never, expr as never, options as never) as Record<string, unknown> | null;
  if (!args || typeof args.input !== 'string') return [];
  const pattern = patternOf(args.regex, args.options);
  const found: Found[] = [];
  for (const m of pattern.matches(args.input)) {
    found.push({ match: m[0], idx: m.index ?? 0, captures: m.slice(1).map((c) => c ?? null) });
    if (!global) break;
  }
  return found;
}

/** The expression operators of this module, by name, for the engine's mingo context. */
export const REGEX_EXPRESSIONS: Readonly<Record<string, ExpressionOperator>> = {
  $regexMatch: (obj, expr, options) => search(obj, expr, options, false).length > 0,
  $regexFind: (obj, expr, options) => search(obj, expr, options, false)[0] ?? null,
  $regexFindAll: (obj, expr, options) => search(obj, expr, options, true),
};
