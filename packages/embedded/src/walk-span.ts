/**
 * The part of an ordered index a filter can match on the index's field: ranges, equalities,
 * `null` and `$type` on the field, intersected across ANDed conditions and joined across the
 * clauses of an `$or` (the span from the first clause's start to the last one's end). A keyset
 * (`$after`) filter, `{ $or: [{ n: { $lt: v } }, { n: v, _id: { $gt: id } }, { n: { $type:
 * [...] } }] }`, so starts a walk at the cursor instead of the first document. Every document
 * the filter matches lies in the span (documents holding an array there excepted: a walk is not
 * used while there are any).
 */
import type { Document } from '@store/common';
import { isPlainObject } from '@store/common';
import { RANK } from './bson-order';
import type { OrderedIndex } from './ordered-index';
import { rangeOf } from './range-bounds';

type Span = [number, number];

/** The type rank each `$type` alias selects (numeric aliases all rank as numbers). */
const TYPE_RANKS: Readonly<Record<string, number>> = {
  minKey: RANK.minKey,
  null: RANK.null,
  number: RANK.number,
  int: RANK.number,
  long: RANK.number,
  double: RANK.number,
  decimal: RANK.number,
  string: RANK.string,
  symbol: RANK.string,
  object: RANK.object,
  array: RANK.array,
  binData: RANK.binData,
  objectId: RANK.objectId,
  bool: RANK.boolean,
  date: RANK.date,
  timestamp: RANK.timestamp,
  regex: RANK.regex,
  maxKey: RANK.maxKey,
};

const intersect = (a: Span, b: Span): Span => [
  Math.max(a[0], b[0]),
  Math.max(Math.max(a[0], b[0]), Math.min(a[1], b[1])),
];

/** The span `$type` aliases select, or undefined for an operand it cannot read. */
function typeSpan(index: OrderedIndex, operand: unknown): Span | undefined {
  const aliases = Array.isArray(operand) ? operand : [operand];
  const ranks = aliases.map((alias) => (typeof alias === 'string' ? TYPE_RANKS[alias] : undefined));
  if (ranks.length === 0 || ranks.some((rank) => rank === undefined)) return undefined;
  return index.rankSpan(Math.min(...(ranks as number[])), Math.max(...(ranks as number[])));
}

/** The span one condition on the index's field allows; the whole index when it cannot tell. */
function conditionSpan(index: OrderedIndex, condition: unknown): Span {
  const range = rangeOf(condition);
  if (range !== undefined) return index.span(range);
  if (condition === null) return index.rankSpan(RANK.null, RANK.null);
  if (isPlainObject(condition) && Object.keys(condition).length === 1 && Object.hasOwn(condition, '$type')) {
    return typeSpan(index, condition.$type) ?? index.all();
  }
  return index.all();
}

/** The span of `index` that documents matching `filter` can lie in. */
export function walkSpan(index: OrderedIndex, filter: Document): Span {
  let span = index.all();
  for (const [key, condition] of Object.entries(filter)) {
    if (key === index.field) span = intersect(span, conditionSpan(index, condition));
    else if (key === '$and' && Array.isArray(condition)) {
      for (const clause of condition)
        if (isPlainObject(clause)) span = intersect(span, walkSpan(index, clause));
    } else if (key === '$or' && Array.isArray(condition) && condition.length > 0) {
      const spans = condition.map((clause) =>
        isPlainObject(clause) ? walkSpan(index, clause) : index.all(),
      );
      span = intersect(span, [
        Math.min(...spans.map(([from]) => from)),
        Math.max(...spans.map(([, to]) => to)),
      ]);
    }
  }
  return span;
}
