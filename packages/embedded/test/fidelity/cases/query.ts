/**
 * Query operators, from the manual's pages on comparison, array, element, evaluation and
 * logical query operators and its "Query Documents" tutorials (their sample collections).
 */
import { Decimal128, Double, Int32, Long } from 'bson';
import { type FidelityCase, find, withDocs } from '../case-types';

/** The `$eq` reference page's inventory. */
const EQ_INVENTORY = [
  { _id: 1, item: { name: 'ab', code: '123' }, qty: 15, tags: ['A', 'B', 'C'] },
  { _id: 2, item: { name: 'cd', code: '123' }, qty: 20, tags: ['B'] },
  { _id: 3, item: { name: 'ij', code: '456' }, qty: 25, tags: ['A', 'B'] },
  { _id: 4, item: { name: 'xy', code: '456' }, qty: 30, tags: ['B', 'A'] },
  { _id: 5, item: { name: 'mn', code: '000' }, qty: 20, tags: [['A', 'B'], 'C'] },
];

const comparison = withDocs(EQ_INVENTORY, [
  ['$eq on a number', find({ qty: { $eq: 20 } }), [2, 5]],
  ['implicit equality on a number', find({ qty: 20 }), [2, 5]],
  ['$eq on a field of an embedded document', find({ 'item.name': { $eq: 'ab' } }), [1]],
  ['$eq on an array element', find({ tags: { $eq: 'B' } }), [1, 2, 3, 4]],
  ['$eq on a whole array (or a nested array element)', find({ tags: { $eq: ['A', 'B'] } }), [3, 5]],
  ['$eq on a whole embedded document', find({ item: { name: 'ab', code: '123' } }), [1]],
  ['embedded-document equality is field-order sensitive', find({ item: { code: '123', name: 'ab' } }), []],
  ['$ne', find({ qty: { $ne: 20 } }), [1, 3, 4]],
  ['$gt', find({ qty: { $gt: 20 } }), [3, 4]],
  ['$gte', find({ qty: { $gte: 20 } }), [2, 3, 4, 5]],
  ['$lt', find({ qty: { $lt: 20 } }), [1]],
  ['$lte', find({ qty: { $lte: 20 } }), [1, 2, 5]],
  ['$gt and $lt together', find({ qty: { $gt: 15, $lt: 30 } }), [2, 3, 5]],
  ['type bracketing: a string bound never matches numbers', find({ qty: { $gt: '20' } }), []],
  ['$gt on strings of an embedded document', find({ 'item.code': { $gt: '123' } }), [3, 4]],
  ['$in', find({ qty: { $in: [5, 15] } }), [1]],
  ['$in on array elements', find({ tags: { $in: ['C', 'D'] } }), [1, 5]],
  ['$in with a regex member', find({ 'item.name': { $in: [/^a/, 'xy'] } }), [1, 4]],
  ['$nin', find({ qty: { $nin: [5, 15] } }), [2, 3, 4, 5]],
  ['$nin on array elements', find({ tags: { $nin: ['A'] } }), [2, 5]],
]);

/** The "Query for Null or Missing Fields" tutorial, plus an array holding null. */
const NULLS = [{ _id: 1, item: null }, { _id: 2 }, { _id: 3, item: 'x' }, { _id: 4, item: [null, 1] }];

const nulls = withDocs(NULLS, [
  ['equality with null matches null, missing and an array holding null', find({ item: null }), [1, 2, 4]],
  ['$ne: null', find({ item: { $ne: null } }), [3]],
  ['$type: "null" matches only null', find({ item: { $type: 'null' } }), [1, 4]],
  ['$type 10 (null)', find({ item: { $type: 10 } }), [1, 4]],
  ['$exists: false', find({ item: { $exists: false } }), [2]],
  ['$exists: true matches null too', find({ item: { $exists: true } }), [1, 3, 4]],
  ['$gte: null matches null and missing', find({ item: { $gte: null } }), [1, 2, 4]],
  ['$lte: null matches null and missing', find({ item: { $lte: null } }), [1, 2, 4]],
  ['$gt: null matches nothing', find({ item: { $gt: null } }), []],
  ['$lt: null matches nothing', find({ item: { $lt: null } }), []],
  ['$in: [null]', find({ item: { $in: [null] } }), [1, 2, 4]],
  ['$nin: [null]', find({ item: { $nin: [null] } }), [3]],
]);

/** The "Query an Array" tutorial's inventory. */
const ARRAY_INVENTORY = [
  { _id: 1, item: 'journal', qty: 25, tags: ['blank', 'red'], dim_cm: [14, 21] },
  { _id: 2, item: 'notebook', qty: 50, tags: ['red', 'blank'], dim_cm: [14, 21] },
  { _id: 3, item: 'paper', qty: 100, tags: ['red', 'blank', 'plain'], dim_cm: [14, 21] },
  { _id: 4, item: 'planner', qty: 75, tags: ['blank', 'red'], dim_cm: [22.85, 30] },
  { _id: 5, item: 'postcard', qty: 45, tags: ['blue'], dim_cm: [10, 15.25] },
];

const arrays = withDocs(ARRAY_INVENTORY, [
  ['an exact array, in order', find({ tags: ['red', 'blank'] }), [2]],
  ['$all: both elements, any order', find({ tags: { $all: ['red', 'blank'] } }), [1, 2, 3, 4]],
  ['an array containing an element', find({ tags: 'red' }), [1, 2, 3, 4]],
  ['an element greater than', find({ dim_cm: { $gt: 25 } }), [4]],
  ['compound conditions met by different elements', find({ dim_cm: { $gt: 15, $lt: 20 } }), [1, 2, 3, 5]],
  ['$elemMatch: one element meets both', find({ dim_cm: { $elemMatch: { $gt: 22, $lt: 30 } } }), [4]],
  ['an element by position', find({ 'dim_cm.1': { $gt: 25 } }), [4]],
  ['$size', find({ tags: { $size: 3 } }), [3]],
  ['$size 1', find({ tags: { $size: 1 } }), [5]],
  ['$all with a regex member', find({ tags: { $all: [/^bl/] } }), [1, 2, 3, 4, 5]],
  ['$all with a regex and a string member', find({ tags: { $all: [/^re/, 'plain'] } }), [3]],
  ['$all on a scalar field', find({ item: { $all: ['journal'] } }), [1]],
  ['$all with a regex member on a scalar field', find({ item: { $all: [/^p/] } }), [3, 4, 5]],
  ['$all: [] matches nothing', find({ tags: { $all: [] } }), []],
  ['$in with a regex on array elements', find({ tags: { $in: [/^pl/] } }), [3]],
  ['$nin on array elements', find({ tags: { $nin: ['red'] } }), [5]],
  ['equality with one element of a numeric array', find({ dim_cm: 21 }), [1, 2, 3]],
  ['$not of $elemMatch', find({ dim_cm: { $not: { $elemMatch: { $lt: 14 } } } }), [1, 2, 3, 4]],
]);

/** The `$elemMatch` reference page's scores and survey. */
const SCORES = [
  { _id: 1, results: [82, 85, 88] },
  { _id: 2, results: [75, 88, 89] },
];
const SURVEY = [
  {
    _id: 1,
    results: [
      { product: 'abc', score: 10 },
      { product: 'xyz', score: 5 },
    ],
  },
  {
    _id: 2,
    results: [
      { product: 'abc', score: 8 },
      { product: 'xyz', score: 7 },
    ],
  },
  {
    _id: 3,
    results: [
      { product: 'abc', score: 7 },
      { product: 'xyz', score: 8 },
    ],
  },
  {
    _id: 4,
    results: [
      { product: 'abc', score: 7 },
      { product: 'def', score: 8 },
    ],
  },
];

const elemMatch = [
  ...withDocs(SCORES, [
    ['$elemMatch on numbers', find({ results: { $elemMatch: { $gte: 80, $lt: 85 } } }), [1]],
  ]),
  ...withDocs(SURVEY, [
    [
      '$elemMatch on embedded documents',
      find({ results: { $elemMatch: { product: 'xyz', score: { $gte: 8 } } } }),
      [3],
    ],
    ['$elemMatch with one condition', find({ results: { $elemMatch: { product: 'xyz' } } }), [1, 2, 3]],
    ['a dotted path through an array', find({ 'results.product': 'xyz' }), [1, 2, 3]],
    ['a range on a dotted path through an array', find({ 'results.score': { $gt: 9 } }), [1]],
    ['a dotted range met by different elements', find({ 'results.score': { $gt: 7, $lt: 8 } }), [1, 2, 3, 4]],
    [
      '$all with $elemMatch members',
      find({ results: { $all: [{ $elemMatch: { product: 'xyz', score: { $gte: 8 } } }] } }),
      [3],
    ],
    ['an exact element document', find({ results: { product: 'abc', score: 10 } }), [1]],
    [
      'an element document in another field order does not match',
      find({ results: { score: 10, product: 'abc' } }),
      [],
    ],
    ['a position then a field', find({ 'results.0.score': 10 }), [1]],
    ['$in with an embedded-document member', find({ results: { $in: [{ product: 'def', score: 8 }] } }), [4]],
  ]),
];

/** The "Query on Embedded/Nested Documents" tutorial. */
const NESTED = [
  { _id: 1, item: 'journal', size: { h: 14, w: 21, uom: 'cm' } },
  { _id: 2, item: 'notebook', size: { h: 8.5, w: 11, uom: 'in' } },
  { _id: 3, item: 'paper', size: { h: 8.5, w: 11, uom: 'in' } },
  { _id: 4, item: 'planner', size: { h: 22.85, w: 30, uom: 'cm' } },
  { _id: 5, item: 'postcard', size: { h: 10, w: 15.25, uom: 'cm' } },
];

const nested = withDocs(NESTED, [
  ['a whole embedded document', find({ size: { h: 14, w: 21, uom: 'cm' } }), [1]],
  ['a whole embedded document in another order', find({ size: { w: 21, h: 14, uom: 'cm' } }), []],
  ['a nested field', find({ 'size.uom': 'in' }), [2, 3]],
  ['a range on a nested field', find({ 'size.h': { $lt: 15 } }), [1, 2, 3, 5]],
  ['two nested fields', find({ 'size.h': { $lt: 15 }, 'size.uom': 'in' }), [2, 3]],
  ['$gt on an embedded document compares field by field', find({ size: { $gt: { h: 14 } } }), [1, 4]],
]);

/** The "Query an Array of Embedded Documents" tutorial. */
const INSTOCK = [
  {
    _id: 1,
    item: 'journal',
    instock: [
      { warehouse: 'A', qty: 5 },
      { warehouse: 'C', qty: 15 },
    ],
  },
  { _id: 2, item: 'notebook', instock: [{ warehouse: 'C', qty: 5 }] },
  {
    _id: 3,
    item: 'paper',
    instock: [
      { warehouse: 'A', qty: 60 },
      { warehouse: 'B', qty: 15 },
    ],
  },
  {
    _id: 4,
    item: 'planner',
    instock: [
      { warehouse: 'A', qty: 40 },
      { warehouse: 'B', qty: 5 },
    ],
  },
  {
    _id: 5,
    item: 'postcard',
    instock: [
      { warehouse: 'B', qty: 15 },
      { warehouse: 'C', qty: 35 },
    ],
  },
];

const arrayOfDocuments = withDocs(INSTOCK, [
  ['an element equal to a document', find({ instock: { warehouse: 'A', qty: 5 } }), [1]],
  ['an element document in another field order', find({ instock: { qty: 5, warehouse: 'A' } }), []],
  ['a field of the first element', find({ 'instock.0.qty': { $lte: 20 } }), [1, 2, 5]],
  ['a field of any element', find({ 'instock.qty': { $lte: 20 } }), [1, 2, 3, 4, 5]],
  ['$elemMatch on two fields', find({ instock: { $elemMatch: { qty: 5, warehouse: 'A' } } }), [1]],
  ['$elemMatch with a range', find({ instock: { $elemMatch: { qty: { $gt: 10, $lte: 20 } } } }), [1, 3, 5]],
  ['a range met by any elements', find({ 'instock.qty': { $gt: 10, $lte: 20 } }), [1, 3, 4, 5]],
  ['two fields met by any elements', find({ 'instock.qty': 5, 'instock.warehouse': 'A' }), [1, 4]],
]);

/** The `$exists` reference page's records. */
const RECORDS = [
  { _id: 1, a: 5, b: 5, c: null },
  { _id: 2, a: 3, b: null, c: 8 },
  { _id: 3, a: null, b: 3, c: 9 },
  { _id: 4, a: 1, b: 2, c: 3 },
  { _id: 5, a: 2, c: 5 },
  { _id: 6, a: 3, b: 2 },
  { _id: 7, a: 4 },
  { _id: 8, b: 2, c: 4 },
  { _id: 9, b: 2 },
  { _id: 10, c: 6 },
];

const exists = withDocs(RECORDS, [
  ['$exists: true', find({ a: { $exists: true } }), [1, 2, 3, 4, 5, 6, 7]],
  ['$exists: false', find({ b: { $exists: false } }), [5, 7, 10]],
  ['$exists: true and $nin', find({ c: { $exists: true, $nin: [5, 9] } }), [1, 2, 4, 8, 10]],
  ['$exists with a range', find({ a: { $exists: true, $gte: 3 } }), [1, 2, 6, 7]],
]);

/** The `$type` reference page's address book (zip codes stored as the Node.js driver sends them). */
const ADDRESSES = [
  { _id: 1, address: '2030 Martian Way', zipCode: '90698345' },
  { _id: 2, address: '156 Lunar Place', zipCode: 43339374.5 },
  { _id: 3, address: '2324 Pluto Place', zipCode: 3921412 },
  { _id: 4, address: '55 Saturn Ring', zipCode: new Int32(88602117) },
  { _id: 5, address: '104 Venus Drive', zipCode: ['834847278', '1893289032'] },
  { _id: 6, address: '1 Mercury Way', zipCode: new Decimal128('43339374.25') },
  { _id: 7, address: '2 Mars Lane', zipCode: 4_294_967_296 },
];

const types = [
  ...withDocs(ADDRESSES, [
    ['$type "string" (an array of strings included)', find({ zipCode: { $type: 'string' } }), [1, 5]],
    ['$type 2', find({ zipCode: { $type: 2 } }), [1, 5]],
    [
      '$type "double": a fractional JS number, or one outside int32',
      find({ zipCode: { $type: 'double' } }),
      [2, 7],
    ],
    ['$type "int": an integral JS number within int32', find({ zipCode: { $type: 'int' } }), [3, 4]],
    ['$type 16 (int)', find({ zipCode: { $type: 16 } }), [3, 4]],
    ['$type "long" never matches a plain JS number', find({ zipCode: { $type: 'long' } }), []],
    ['$type "decimal" matches only Decimal128', find({ zipCode: { $type: 'decimal' } }), [6]],
    ['$type "number"', find({ zipCode: { $type: 'number' } }), [2, 3, 4, 6, 7]],
    ['$type "array"', find({ zipCode: { $type: 'array' } }), [5]],
    ['$type with a list of types', find({ zipCode: { $type: ['string', 'decimal'] } }), [1, 5, 6]],
  ]),
  ...withDocs(
    [
      { _id: 1, n: Long.fromNumber(5) },
      { _id: 2, n: new Double(5) },
    ],
    [
      ['$type "long" on a Long the driver stored', find({ n: { $type: 'long' } }), [1], []],
      ['$type "double" on a Double the driver stored', find({ n: { $type: 'double' } }), [2], []],
    ],
  ),
  ...withDocs(
    [
      { _id: 1, v: true },
      { _id: 2, v: new Date(0) },
      { _id: 3, v: { a: 1 } },
      { _id: 4, v: /x/ },
      { _id: 5, v: 'x' },
    ],
    [
      ['$type "bool"', find({ v: { $type: 'bool' } }), [1]],
      ['$type "date"', find({ v: { $type: 'date' } }), [2]],
      ['$type "object"', find({ v: { $type: 'object' } }), [3]],
      ['$type "regex"', find({ v: { $type: 'regex' } }), [4]],
    ],
  ),
];

/** The `$regex` reference page's products. */
const PRODUCTS = [
  { _id: 100, sku: 'abc123', description: 'Single line description.' },
  { _id: 101, sku: 'abc789', description: 'First line\nSecond line' },
  { _id: 102, sku: 'xyz456', description: 'Many spaces before     line' },
  { _id: 103, sku: 'xyz789', description: 'Multiple\nline description' },
  { _id: 104, sku: 'Abc789', description: 'SKU starts with A' },
];

const regex = withDocs(PRODUCTS, [
  ['$regex anchored at the end', find({ sku: { $regex: /789$/ } }), [101, 103, 104]],
  ['$regex with $options "i"', find({ sku: { $regex: /^ABC/i } }), [100, 101, 104]],
  ['$regex as a string with $options', find({ sku: { $regex: '^ABC', $options: 'i' } }), [100, 101, 104]],
  ['$options "m": ^ at each line', find({ description: { $regex: /^S/, $options: 'm' } }), [100, 101, 104]],
  ['without "m", ^ only at the start', find({ description: { $regex: /^S/ } }), [100, 104]],
  [
    '$options "s": the dot matches a newline',
    find({ description: { $regex: /m.*line/, $options: 'si' } }),
    [102, 103],
  ],
  ['without "s" the dot stops at a newline', find({ description: { $regex: /m.*line/i } }), [102]],
  ['an implicit regex', find({ sku: /^abc/ }), [100, 101]],
  ['$in with regexes', find({ sku: { $in: [/^abc/, /^xyz/] } }), [100, 101, 102, 103]],
  ['$not with a regex', find({ sku: { $not: /^abc/ } }), [102, 103, 104]],
  ['$nin with a regex', find({ sku: { $nin: [/^abc/] } }), [102, 103, 104]],
]);

/** The `$not`, `$or`, `$and`, `$nor` reference pages' inventory. */
const LOGICAL = [
  { _id: 1, item: 'Flour', price: 1.99, qty: 10 },
  { _id: 2, item: 'Sugar', price: 2.5 },
  { _id: 3, item: 'Salt', price: 0.99, qty: 50 },
  { _id: 4, item: 'Rice', qty: 20 },
];

const logical = withDocs(LOGICAL, [
  ['$not matches a missing field', find({ price: { $not: { $gt: 1.99 } } }), [1, 3, 4]],
  ['$lte does not match a missing field', find({ price: { $lte: 1.99 } }), [1, 3]],
  ['$or', find({ $or: [{ qty: { $lt: 20 } }, { price: 2.5 }] }), [1, 2]],
  ['$and on one field', find({ $and: [{ price: { $ne: 1.99 } }, { price: { $exists: true } }] }), [2, 3]],
  [
    '$nor: missing fields count as not matching',
    find({ $nor: [{ price: 1.99 }, { qty: { $lt: 20 } }] }),
    [2, 3, 4],
  ],
  ['$nor of equalities', find({ $nor: [{ price: 1.99 }, { item: 'Sugar' }] }), [3, 4]],
  [
    '$and of $or',
    find({ $and: [{ $or: [{ qty: 10 }, { qty: 50 }] }, { $or: [{ price: 0.99 }, { item: 'Rice' }] }] }),
    [3],
  ],
  ['$not with $in', find({ item: { $not: { $in: ['Flour', 'Salt'] } } }), [2, 4]],
]);

export const QUERY_CASES: Record<string, FidelityCase[]> = {
  'comparison operators': comparison,
  'null and missing fields': nulls,
  arrays,
  $elemMatch: elemMatch,
  'embedded documents': nested,
  'arrays of embedded documents': arrayOfDocuments,
  $exists: exists,
  $type: types,
  $regex: regex,
  'logical operators': logical,
};
