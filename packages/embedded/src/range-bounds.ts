/**
 * The ranges a filter holds top-level fields to: `$gt` / `$gte` / `$lt` / `$lte` / `$eq` or a
 * plain equality, side by side or under `$and`, with a bound an ordered index can answer (a
 * number, string, ObjectId, boolean or Date; not null, NaN, arrays, sub-documents or patterns).
 * Every document the filter matches lies in each range (or holds an array there), so a range is
 * only ever a superset of the matches: the whole filter is still applied to them.
 */
import type { Document } from '@store/common';
import { isPlainObject } from '@store/common';
import { typeRank } from './bson-order';
import { RANGE_RANKS, type Range, type RangeEnd } from './ordered-index';

const isBound = (value: unknown): boolean =>
  RANGE_RANKS.has(typeRank(value)) && !(typeof value === 'number' && Number.isNaN(value));

/** The range of one field's condition, or undefined when it holds none an index answers. */
export function rangeOf(condition: unknown): Range | undefined {
  const operators = isPlainObject(condition) && Object.keys(condition).some((key) => key.startsWith('$'));
  if (!operators) return isBound(condition) ? equalRange(condition) : undefined;
  const ops = condition as Document;
  if (Object.hasOwn(ops, '$eq')) return isBound(ops.$eq) ? equalRange(ops.$eq) : undefined;
  const end = (name: string, inclusive: boolean): RangeEnd | undefined =>
    Object.hasOwn(ops, name) && isBound(ops[name]) ? { value: ops[name], inclusive } : undefined;
  const lower = end('$gt', false) ?? end('$gte', true);
  const upper = end('$lt', false) ?? end('$lte', true);
  if (lower === undefined && upper === undefined) return undefined;
  const rank = typeRank((lower ?? upper)?.value);
  // Ends in two brackets match nothing; leave such a filter to the scan.
  if (lower !== undefined && upper !== undefined && typeRank(upper.value) !== rank) return undefined;
  return { rank, ...(lower && { lower }), ...(upper && { upper }) };
}

function equalRange(value: unknown): Range {
  const end = { value, inclusive: true };
  return { rank: typeRank(value), lower: end, upper: end };
}

/** The range of each top-level field `filter` holds to one (the first found per field). */
export function fieldRanges(filter: Document, ranges = new Map<string, Range>()): Map<string, Range> {
  for (const [field, condition] of Object.entries(filter)) {
    if (field === '$and' && Array.isArray(condition)) {
      for (const clause of condition) if (isPlainObject(clause)) fieldRanges(clause, ranges);
    } else if (!field.startsWith('$') && !field.includes('.') && !ranges.has(field)) {
      const range = rangeOf(condition);
      if (range !== undefined) ranges.set(field, range);
    }
  }
  return ranges;
}
