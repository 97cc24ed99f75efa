import * as chrono from 'chrono-node';
import ms from 'ms';

/** A duration: an `ms` string (`"15m"`, `"1d"`), natural language (`"in one day"`), or milliseconds. */
export type DurationInput = string | number;

/** Longest accepted expression, in characters. */
const MAX_LENGTH = 100;

/** Natural language through chrono-node: the whole expression must parse, relative to `now`. */
function parseNaturalLanguage(expression: string, now: Date): number | undefined {
  const results = chrono.parse(expression, now, { forwardDate: true });
  const [first] = results;
  if (results.length !== 1 || first === undefined) return undefined;
  if (first.index !== 0 || first.text.length !== expression.length) return undefined;
  return first.start.date().getTime() - now.getTime();
}

/**
 * Converts a duration expression into milliseconds, once (natural language is read relative to
 * `now`). Returns `undefined` when the expression is not a positive, finite duration.
 * @example parseDuration('15m') // 900000
 * @example parseDuration('in one day') // 86400000
 */
export function parseDuration(input: unknown, now: Date = new Date()): number | undefined {
  if (typeof input === 'number') return Number.isFinite(input) && input > 0 ? input : undefined;
  if (typeof input !== 'string') return undefined;
  const expression = input.trim();
  if (expression === '' || expression.length > MAX_LENGTH) return undefined;
  const parsed = ms(expression as ms.StringValue) ?? parseNaturalLanguage(expression, now);
  return parsed !== undefined && Number.isFinite(parsed) && parsed > 0 ? parsed : undefined;
}
