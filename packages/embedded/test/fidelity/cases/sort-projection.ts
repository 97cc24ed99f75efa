/**
 * Sort order and projection, from the manual's "Comparison/Sort Order" page (BSON type order,
 * arrays, strings by binary comparison, objects field by field) and the "Project Fields to
 * Return from Query" tutorial.
 */
import { Binary, Decimal128, MaxKey, MinKey, ObjectId, Timestamp } from 'bson';
import { type FidelityCase, find, withDocs } from '../case-types';

const OID = new ObjectId('0123456789abcdef01234567');

/** One value of every BSON type, inserted out of order. */
const EVERY_TYPE = [
  { _id: 1, v: true },
  { _id: 2, v: 'a' },
  { _id: 3, v: new Date(0) },
  { _id: 4, v: null },
  { _id: 5, v: OID },
  { _id: 6, v: { a: 1 } },
  { _id: 7, v: 2 },
  { _id: 8, v: new Binary(new Uint8Array([1])) },
  { _id: 9, v: new Timestamp({ t: 1, i: 1 }) },
  { _id: 10, v: /x/ },
  { _id: 11, v: new MaxKey() },
  { _id: 12, v: new MinKey() },
  { _id: 13, v: [] },
];

const typeOrder = withDocs(EVERY_TYPE, [
  [
    'BSON type order ascending (an empty array below null)',
    find({}, { sort: { v: 1 } }),
    [12, 13, 4, 7, 2, 6, 8, 5, 1, 3, 9, 10, 11],
  ],
  ['BSON type order descending', find({}, { sort: { v: -1 } }), [11, 10, 9, 3, 1, 5, 8, 6, 2, 7, 4, 13, 12]],
  ['ObjectId before Boolean before Date', find({ _id: { $in: [1, 3, 5] } }, { sort: { v: 1 } }), [5, 1, 3]],
]);

const MISSING = [{ _id: 1, v: 1 }, { _id: 2 }, { _id: 3, v: null }, { _id: 4, v: 'a' }];
const NUMBERS = [
  { _id: 1, v: 2 },
  { _id: 2, v: new Decimal128('1.75') },
  { _id: 3, v: 1.5 },
  { _id: 4, v: Number.NaN },
  { _id: 5, v: Number.NEGATIVE_INFINITY },
  { _id: 6, v: -1 },
];
const STRINGS = [
  { _id: 1, v: 'b' },
  { _id: 2, v: 'B' },
  { _id: 3, v: 'a' },
  { _id: 4, v: 'é' },
  { _id: 5, v: '\u{1F600}' },
  { _id: 6, v: '\uFF5E' },
  { _id: 7, v: '' },
  { _id: 8, v: 'ab' },
];
const ARRAYS = [
  { _id: 1, v: [1, 5] },
  { _id: 2, v: [2, 3] },
  { _id: 3, v: [0, 4] },
  { _id: 4, v: 2.5 },
];
const OBJECTS = [
  { _id: 1, v: { b: 0 } },
  { _id: 2, v: { a: 1, c: 0 } },
  { _id: 3, v: { a: 1, b: 1 } },
  { _id: 4, v: { a: 1 } },
  { _id: 5, v: { a: 'x' } },
];
const ITEMS = [
  { _id: 1, items: [{ p: 5 }, { p: 1 }] },
  { _id: 2, items: [{ p: 3 }] },
  { _id: 3, items: [{ p: 2 }, { q: 9 }] },
];
const PEOPLE = [
  { _id: 1, name: 'Ann', age: 30 },
  { _id: 2, name: 'Bob', age: 25 },
  { _id: 3, name: 'Cy', age: 30 },
  { _id: 4, name: 'Di', age: 25 },
];

const sorting: FidelityCase[] = [
  ...typeOrder,
  ...withDocs(MISSING, [
    ['missing sorts as null', find({}, { sort: { v: 1, _id: 1 } }), [2, 3, 1, 4]],
    ['missing sorts as null, descending', find({}, { sort: { v: -1, _id: 1 } }), [4, 1, 2, 3]],
  ]),
  ...withDocs(NUMBERS, [
    ['numbers of every type by value, NaN first', find({}, { sort: { v: 1 } }), [4, 5, 6, 3, 2, 1]],
    ['numbers descending', find({}, { sort: { v: -1 } }), [1, 2, 3, 6, 5, 4]],
  ]),
  ...withDocs(STRINGS, [
    ['strings by UTF-8 bytes (binary comparison)', find({}, { sort: { v: 1 } }), [7, 2, 3, 8, 1, 4, 6, 5]],
    ['strings by UTF-8 bytes, descending', find({}, { sort: { v: -1 } }), [5, 6, 4, 1, 8, 3, 2, 7]],
    [
      'a character above the BMP sorts after U+FF5E',
      find({ _id: { $in: [5, 6] } }, { sort: { v: 1 } }),
      [6, 5],
    ],
    ['$gt on strings by UTF-8 bytes', find({ v: { $gt: '\uFF5E' } }), [5]],
    ['$lt on strings by UTF-8 bytes', find({ v: { $lt: 'a' } }), [2, 7]],
  ]),
  ...withDocs(ARRAYS, [
    ['arrays ascending by their smallest element', find({}, { sort: { v: 1 } }), [3, 1, 2, 4]],
    ['arrays descending by their largest element', find({}, { sort: { v: -1 } }), [1, 3, 2, 4]],
  ]),
  ...withDocs(OBJECTS, [
    [
      'embedded documents field by field in stored order: value type, then name, then value',
      find({}, { sort: { v: 1 } }),
      [4, 3, 2, 1, 5],
    ],
    ['embedded documents descending', find({}, { sort: { v: -1 } }), [5, 1, 2, 3, 4]],
  ]),
  ...withDocs(ITEMS, [
    [
      'a dotted path through an array, ascending by the smallest',
      find({}, { sort: { 'items.p': 1 } }),
      [3, 1, 2],
    ],
    [
      'a dotted path through an array, descending by the largest',
      find({}, { sort: { 'items.p': -1 } }),
      [1, 2, 3],
    ],
  ]),
  ...withDocs(PEOPLE, [
    ['two sort keys', find({}, { sort: { age: 1, name: -1 } }), [4, 2, 3, 1]],
    ['sort then skip and limit', find({}, { sort: { name: -1 }, skip: 1, limit: 2 }), [3, 2]],
    ['sort on _id descending', find({ age: 30 }, { sort: { _id: -1 } }), [3, 1]],
  ]),
];

/** The "Project Fields to Return from Query" tutorial's inventory. */
const INVENTORY = [
  {
    _id: 1,
    item: 'journal',
    status: 'A',
    size: { h: 14, w: 21, uom: 'cm' },
    instock: [{ warehouse: 'A', qty: 5 }],
  },
  {
    _id: 2,
    item: 'notebook',
    status: 'A',
    size: { h: 8.5, w: 11, uom: 'in' },
    instock: [{ warehouse: 'C', qty: 5 }],
  },
  {
    _id: 3,
    item: 'paper',
    status: 'D',
    size: { h: 8.5, w: 11, uom: 'in' },
    instock: [
      { warehouse: 'A', qty: 60 },
      { warehouse: 'B', qty: 15 },
    ],
  },
];
const A = { status: 'A' };

const projection = withDocs(INVENTORY, [
  [
    'inclusion keeps _id',
    find(A, { projection: { item: 1, status: 1 } }),
    [
      { _id: 1, item: 'journal', status: 'A' },
      { _id: 2, item: 'notebook', status: 'A' },
    ],
  ],
  [
    'inclusion without _id',
    find(A, { projection: { item: 1, status: 1, _id: 0 } }),
    [
      { item: 'journal', status: 'A' },
      { item: 'notebook', status: 'A' },
    ],
  ],
  [
    'exclusion',
    find(A, { projection: { status: 0, instock: 0 } }),
    [
      { _id: 1, item: 'journal', size: { h: 14, w: 21, uom: 'cm' } },
      { _id: 2, item: 'notebook', size: { h: 8.5, w: 11, uom: 'in' } },
    ],
  ],
  [
    'a dotted inclusion',
    find(A, { projection: { item: 1, 'size.uom': 1 } }),
    [
      { _id: 1, item: 'journal', size: { uom: 'cm' } },
      { _id: 2, item: 'notebook', size: { uom: 'in' } },
    ],
  ],
  [
    'a dotted exclusion',
    find(A, { projection: { 'size.uom': 0, instock: 0 } }),
    [
      { _id: 1, item: 'journal', status: 'A', size: { h: 14, w: 21 } },
      { _id: 2, item: 'notebook', status: 'A', size: { h: 8.5, w: 11 } },
    ],
  ],
  [
    'a dotted inclusion into an array of documents',
    find({ _id: 3 }, { projection: { item: 1, 'instock.qty': 1 } }),
    [{ _id: 3, item: 'paper', instock: [{ qty: 60 }, { qty: 15 }] }],
  ],
  [
    'only _id excluded',
    find({ _id: 1 }, { projection: { _id: 0, instock: 0, size: 0 } }),
    [{ item: 'journal', status: 'A' }],
  ],
  [
    '$slice of the last element',
    find({ _id: 3 }, { projection: { item: 1, instock: { $slice: -1 } } }),
    [{ _id: 3, item: 'paper', instock: [{ warehouse: 'B', qty: 15 }] }],
  ],
  [
    '$elemMatch projection keeps the first matching element',
    find({ _id: 3 }, { projection: { instock: { $elemMatch: { qty: { $lt: 20 } } } } }),
    [{ _id: 3, instock: [{ warehouse: 'B', qty: 15 }] }],
  ],
  [
    'inclusion returns fields in stored order, not projection order',
    find({ _id: 1 }, { projection: { status: 1, item: 1 } }),
    [{ _id: 1, item: 'journal', status: 'A' }],
  ],
]);

export const SORT_PROJECTION_CASES: Record<string, FidelityCase[]> = {
  'sort and comparison order': sorting,
  projection,
};
