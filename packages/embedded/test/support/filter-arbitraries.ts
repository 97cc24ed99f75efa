/**
 * fast-check arbitraries of documents and filters for the compiled-filter property tests:
 * values of every type the engine compares (numbers with -0, NaN and infinities, strings
 * across UTF-16 surrogates, Dates including an invalid one, ObjectIds, booleans, null,
 * missing, Decimal128, Long, regexes, MinKey), nested in sub-documents and arrays; filters
 * over top-level, dotted and positional paths, with the operators the store's query language
 * emits, randomly nested in `$and` / `$or` / `$nor`.
 */
import type { Document } from '@store/common';
import { Decimal128, Long, MinKey, ObjectId, Timestamp } from 'bson';
import fc from 'fast-check';

const IDS = ['000000000000000000000001', '0000000000000000000000ff', 'ff0000000000000000000000'].map(
  (hex) => new ObjectId(hex),
);
const DATES = [new Date(0), new Date(86_400_000), new Date(-1), new Date(Number.NaN)];

// Few distinct values, so that generated filters and documents often meet.
const numbers = fc.constantFrom(
  -1,
  0,
  -0,
  1,
  1.5,
  2,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  Number.NEGATIVE_INFINITY,
);
const strings = fc.oneof(
  { weight: 9, arbitrary: fc.constantFrom('', 'a', 'A', 'ab', 'b', '1', 'é', 'a\nb', '\uffff', '😀') },
  { weight: 1, arbitrary: fc.string({ maxLength: 3 }) },
);

/** Scalars a filter compares with (the specialised operands). */
const scalar: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: numbers },
  { weight: 4, arbitrary: strings },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 1, arbitrary: fc.constant(null) },
  { weight: 2, arbitrary: fc.constantFrom(...DATES) },
  { weight: 1, arbitrary: fc.constantFrom(...IDS) },
);

/** Values stored in documents: the scalars and a few rarer BSON types. */
const stored: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 12, arbitrary: scalar },
  { weight: 1, arbitrary: fc.constant(undefined) },
  {
    weight: 2,
    arbitrary: fc.constantFrom<unknown>(
      Decimal128.fromString('2'),
      Decimal128.fromString('-1.5'),
      Decimal128.fromString('NaN'),
      Long.fromNumber(2 ** 60),
      new Timestamp({ t: 1, i: 1 }),
      new MinKey(),
      /a/i,
    ),
  },
);

const FIELDS = ['a', 'b', 'c'] as const;

const { value } = fc.letrec<{ value: unknown; object: Document }>((tie) => ({
  value: fc.oneof(
    { maxDepth: 3, depthIdentifier: 'doc' },
    { weight: 5, arbitrary: stored },
    { weight: 2, arbitrary: fc.array(tie('value'), { maxLength: 3, depthIdentifier: 'doc' }) },
    { weight: 2, arbitrary: tie('object') },
  ),
  object: fc.dictionary(fc.constantFrom(...FIELDS), tie('value'), { maxKeys: 3, depthIdentifier: 'doc' }),
}));

/** A document: an `_id`, then fields `a` and `b` (each may be missing) holding any value. */
export const doc: fc.Arbitrary<Document> = fc
  .tuple(fc.integer({ min: 1, max: 4 }), fc.record({ a: value, b: value }, { requiredKeys: [] }))
  .map(([id, fields]) => ({ _id: id, ...fields }));

const path = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('a', 'a.b') },
  { weight: 2, arbitrary: fc.constantFrom('b', 'a.0', 'a.1', 'a.b.c') },
  { weight: 1, arbitrary: fc.constantFrom('_id', 'c', 'a.0.b', 'b.a.0', 'a.constructor') },
);

const list = fc.array(
  fc.oneof({ weight: 6, arbitrary: scalar }, { weight: 1, arbitrary: fc.constantFrom(/^a/, /B/i) }),
  {
    maxLength: 4,
  },
);
const pattern = fc.constantFrom('a', '^a', '^$', 'b', '.', 'A', 'é', '^a\\z', '\\d');
const flags = fc.constantFrom(undefined, '', 'i', 'm', 'im');
const regexOperators: fc.Arbitrary<Document> = fc
  .tuple(pattern, flags)
  .map(([source, options]) =>
    options === undefined ? { $regex: source } : { $regex: source, $options: options },
  );
const regexLiteral = fc
  .tuple(pattern, fc.constantFrom('', 'i'))
  .map(([source, options]) => new RegExp(source.replace('\\z', '$'), options));

const COMPARISONS = ['$eq', '$ne', '$gt', '$gte', '$lt', '$lte'] as const;

/** Operators the compiled path specialises, with operands mostly scalar (sometimes a sub-document or an array). */
const specialised: fc.Arbitrary<Document> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc
      .tuple(
        fc.constantFrom(...COMPARISONS),
        fc.oneof({ weight: 8, arbitrary: scalar }, { weight: 1, arbitrary: value }),
      )
      .map(([operator, operand]) => ({ [operator]: operand })),
  },
  { weight: 2, arbitrary: list.map((members) => ({ $in: members })) },
  { weight: 1, arbitrary: list.map((members) => ({ $nin: members })) },
  { weight: 1, arbitrary: fc.constantFrom(true, false, 0, 1).map((exists) => ({ $exists: exists })) },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: 3 }).map((size) => ({ $size: size })) },
  { weight: 3, arbitrary: regexOperators },
);

/** Operators the compiled path hands to the engine's own implementation. */
const delegated: fc.Arbitrary<Document> = fc.oneof(
  fc.constantFrom<Document>(
    { $type: 'number' },
    { $type: ['string', 'null'] },
    { $type: 'array' },
    { $mod: [2, 0] },
    { $elemMatch: { $gt: 1 } },
    { $elemMatch: { b: 1 } },
  ),
  list.map((members) => ({ $all: members })),
);

const operators: fc.Arbitrary<Document> = fc
  .array(fc.oneof({ weight: 8, arbitrary: specialised }, { weight: 1, arbitrary: delegated }), {
    minLength: 1,
    maxLength: 2,
  })
  .map((parts) => Object.assign({}, ...parts));

/** One field's condition: a bare value (equality), a regex, operators, or `$not` of operators or a regex. */
const condition: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: scalar },
  { weight: 1, arbitrary: value },
  { weight: 2, arbitrary: regexLiteral },
  { weight: 6, arbitrary: operators },
  { weight: 1, arbitrary: fc.oneof(specialised, regexLiteral).map((inner) => ({ $not: inner })) },
);

const LOGICAL = ['$and', '$or', '$nor'] as const;

const { filter: filterArbitrary } = fc.letrec<{ filter: Document; clause: [string, unknown] }>((tie) => ({
  clause: fc.oneof(
    { maxDepth: 2, depthIdentifier: 'filter' },
    { weight: 4, arbitrary: fc.tuple(path, condition) },
    {
      weight: 1,
      arbitrary: fc.tuple(
        fc.constantFrom(...LOGICAL),
        fc.array(tie('filter'), { maxLength: 3, depthIdentifier: 'filter' }),
      ),
    },
  ),
  filter: fc
    .array(tie('clause'), { maxLength: 3, depthIdentifier: 'filter' })
    .map((clauses) => Object.fromEntries(clauses) as Document),
}));

/** A filter: fields with conditions, and `$and` / `$or` / `$nor` of filters, at most two levels deep. */
export const filter: fc.Arbitrary<Document> = filterArbitrary;
