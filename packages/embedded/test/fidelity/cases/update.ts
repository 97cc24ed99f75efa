/**
 * Update operators, from the manual's update operator reference pages (their examples): the
 * answer is every document of the collection after the update, by `_id`.
 */
import { expect } from 'vitest';
import { type FidelityCase, update, withDocs } from '../case-types';

const PRODUCT = {
  _id: 100,
  quantity: 250,
  instock: true,
  reorder: false,
  details: { model: '14QQ', make: 'Clothes Corp' },
  tags: ['apparel', 'clothing'],
  ratings: [{ by: 'Customer007', rating: 4 }],
};
const ID = { _id: 100 };

const set = withDocs(
  [PRODUCT],
  [
    [
      '$set top-level fields',
      update(ID, {
        $set: { quantity: 500, details: { model: '2600', make: 'Fashionaires' }, tags: ['coats'] },
      }),
      [{ ...PRODUCT, quantity: 500, details: { model: '2600', make: 'Fashionaires' }, tags: ['coats'] }],
    ],
    [
      '$set a field of an embedded document',
      update(ID, { $set: { 'details.make': 'Kustom Kidz' } }),
      [{ ...PRODUCT, details: { model: '14QQ', make: 'Kustom Kidz' } }],
    ],
    [
      '$set array elements by position',
      update(ID, { $set: { 'tags.1': 'rain gear', 'ratings.0.rating': 2 } }),
      [{ ...PRODUCT, tags: ['apparel', 'rain gear'], ratings: [{ by: 'Customer007', rating: 2 }] }],
    ],
    ['$set a new field appends it', update(ID, { $set: { color: 'red' } }), [{ ...PRODUCT, color: 'red' }]],
    [
      '$set creates new fields in lexicographic order',
      update(ID, { $set: { zeta: 1, alpha: 2 } }),
      [{ ...PRODUCT, alpha: 2, zeta: 1 }],
    ],
    [
      '$set a dotted path creates the embedded documents',
      update(ID, { $set: { 'a.b.c': 1 } }),
      [{ ...PRODUCT, a: { b: { c: 1 } } }],
    ],
    [
      '$set a position past the end pads with null',
      update(ID, { $set: { 'tags.3': 'x' } }),
      [{ ...PRODUCT, tags: ['apparel', 'clothing', null, 'x'] }],
    ],
    [
      '$set with the positional $ operator',
      update({ _id: 100, tags: 'clothing' }, { $set: { 'tags.$': 'garments' } }),
      [{ ...PRODUCT, tags: ['apparel', 'garments'] }],
    ],
    [
      '$unset',
      update(ID, { $unset: { quantity: '', instock: '' } }),
      [
        {
          _id: 100,
          reorder: false,
          details: PRODUCT.details,
          tags: PRODUCT.tags,
          ratings: PRODUCT.ratings,
        },
      ],
    ],
    [
      '$unset an array element leaves null',
      update(ID, { $unset: { 'tags.0': '' } }),
      [{ ...PRODUCT, tags: [null, 'clothing'] }],
    ],
    ['$set on _id is refused', update(ID, { $set: { _id: 1 } }), { error: 66 }],
  ],
);

const METRICS = { _id: 1, sku: 'abc123', quantity: 10, metrics: { orders: 2, ratings: 3.5 } };
const arithmetic = [
  ...withDocs(
    [METRICS],
    [
      [
        '$inc up and down',
        update({ _id: 1 }, { $inc: { quantity: -2, 'metrics.orders': 1 } }),
        [{ ...METRICS, quantity: 8, metrics: { orders: 3, ratings: 3.5 } }],
      ],
      [
        '$inc a missing field sets it',
        update({ _id: 1 }, { $inc: { views: 5 } }),
        [{ ...METRICS, views: 5 }],
      ],
      [
        '$inc a string is refused (TypeMismatch)',
        update({ _id: 1 }, { $inc: { sku: 1 } }),
        { error: 14 },
        [METRICS],
      ],
    ],
  ),
  ...withDocs(
    [{ _id: 1, item: 'Hats', price: 10, quantity: 25 }],
    [
      [
        '$mul',
        update({ _id: 1 }, { $mul: { price: 1.25, quantity: 2 } }),
        [{ _id: 1, item: 'Hats', price: 12.5, quantity: 50 }],
      ],
      [
        '$mul a missing field sets 0',
        update({ _id: 1 }, { $mul: { sold: 3 } }),
        [{ _id: 1, item: 'Hats', price: 10, quantity: 25, sold: 0 }],
      ],
    ],
  ),
  ...withDocs(
    [{ _id: 1, highScore: 800, lowScore: 200 }],
    [
      [
        '$min lowers',
        update({ _id: 1 }, { $min: { lowScore: 150 } }),
        [{ _id: 1, highScore: 800, lowScore: 150 }],
      ],
      [
        '$min keeps a lower value',
        update({ _id: 1 }, { $min: { lowScore: 250 } }),
        [{ _id: 1, highScore: 800, lowScore: 200 }],
      ],
      [
        '$max raises',
        update({ _id: 1 }, { $max: { highScore: 950 } }),
        [{ _id: 1, highScore: 950, lowScore: 200 }],
      ],
      [
        '$max keeps a higher value',
        update({ _id: 1 }, { $max: { highScore: 700 } }),
        [{ _id: 1, highScore: 800, lowScore: 200 }],
      ],
      [
        '$max on a missing field sets it',
        update({ _id: 1 }, { $max: { mid: 5 } }),
        [{ _id: 1, highScore: 800, lowScore: 200, mid: 5 }],
      ],
      [
        '$min across types by BSON order (null below numbers)',
        update({ _id: 1 }, { $min: { lowScore: null } }),
        [{ _id: 1, highScore: 800, lowScore: null }],
      ],
    ],
  ),
  ...withDocs(
    [{ _id: 1, dateEntered: new Date('2023-10-01T05:00:00Z') }],
    [
      [
        '$min with dates',
        update({ _id: 1 }, { $min: { dateEntered: new Date('2023-09-25T00:00:00Z') } }),
        [{ _id: 1, dateEntered: new Date('2023-09-25T00:00:00Z') }],
      ],
    ],
  ),
];

const QUIZZES = {
  _id: 5,
  quizzes: [
    { wk: 1, score: 10 },
    { wk: 2, score: 8 },
    { wk: 3, score: 5 },
    { wk: 4, score: 6 },
  ],
};
const arrays: FidelityCase[] = [
  ...withDocs(
    [{ _id: 1, scores: [44, 78, 38, 80] }],
    [
      [
        '$push one value',
        update({ _id: 1 }, { $push: { scores: 89 } }),
        [{ _id: 1, scores: [44, 78, 38, 80, 89] }],
      ],
      [
        '$push an array as one element',
        update({ _id: 1 }, { $push: { scores: [1, 2] } }),
        [{ _id: 1, scores: [44, 78, 38, 80, [1, 2]] }],
      ],
      [
        '$push $each',
        update({ _id: 1 }, { $push: { scores: { $each: [90, 92, 85] } } }),
        [{ _id: 1, scores: [44, 78, 38, 80, 90, 92, 85] }],
      ],
      [
        '$push $each with $sort',
        update({ _id: 1 }, { $push: { scores: { $each: [50], $sort: 1 } } }),
        [{ _id: 1, scores: [38, 44, 50, 78, 80] }],
      ],
      [
        '$push $each with $slice from the end',
        update({ _id: 1 }, { $push: { scores: { $each: [100, 20], $slice: -3 } } }),
        [{ _id: 1, scores: [80, 100, 20] }],
      ],
      [
        '$push $each at $position 0',
        update({ _id: 1 }, { $push: { scores: { $each: [50, 60], $position: 0 } } }),
        [{ _id: 1, scores: [50, 60, 44, 78, 38, 80] }],
      ],
      [
        '$push $each: [] with $slice trims',
        update({ _id: 1 }, { $push: { scores: { $each: [], $slice: 2 } } }),
        [{ _id: 1, scores: [44, 78] }],
      ],
      [
        '$push to a missing field creates the array',
        update({ _id: 1 }, { $push: { other: 1 } }),
        [{ _id: 1, scores: [44, 78, 38, 80], other: [1] }],
      ],
      [
        '$pop the last element',
        update({ _id: 1 }, { $pop: { scores: 1 } }),
        [{ _id: 1, scores: [44, 78, 38] }],
      ],
      [
        '$pop the first element',
        update({ _id: 1 }, { $pop: { scores: -1 } }),
        [{ _id: 1, scores: [78, 38, 80] }],
      ],
      [
        '$pull with a condition',
        update({ _id: 1 }, { $pull: { scores: { $gte: 78 } } }),
        [{ _id: 1, scores: [44, 38] }],
      ],
      ['$pullAll', update({ _id: 1 }, { $pullAll: { scores: [44, 80] } }), [{ _id: 1, scores: [78, 38] }]],
    ],
  ),
  ...withDocs(
    [QUIZZES],
    [
      [
        '$push $each, $sort on a field, $slice (ties keep their order)',
        update(
          { _id: 5 },
          {
            $push: {
              quizzes: {
                $each: [
                  { wk: 5, score: 8 },
                  { wk: 6, score: 7 },
                  { wk: 7, score: 6 },
                ],
                $sort: { score: -1 },
                $slice: 3,
              },
            },
          },
        ),
        [
          {
            _id: 5,
            quizzes: [
              { wk: 1, score: 10 },
              { wk: 2, score: 8 },
              { wk: 5, score: 8 },
            ],
          },
        ],
      ],
      [
        '$pull embedded documents matching a condition',
        update({ _id: 5 }, { $pull: { quizzes: { score: { $lt: 7 } } } }),
        [
          {
            _id: 5,
            quizzes: [
              { wk: 1, score: 10 },
              { wk: 2, score: 8 },
            ],
          },
        ],
      ],
    ],
  ),
  ...withDocs(
    [
      {
        _id: 1,
        fruits: ['apples', 'pears', 'oranges', 'grapes', 'bananas'],
        vegetables: ['carrots', 'celery', 'squash', 'carrots'],
      },
    ],
    [
      [
        '$pull with $in and an equality',
        update({ _id: 1 }, { $pull: { fruits: { $in: ['apples', 'oranges'] }, vegetables: 'carrots' } }),
        [{ _id: 1, fruits: ['pears', 'grapes', 'bananas'], vegetables: ['celery', 'squash'] }],
      ],
    ],
  ),
  ...withDocs(
    [{ _id: 1, item: 'camera', tags: ['electronics', 'camera'], letters: [{ b: 2, a: 1 }] }],
    [
      [
        '$addToSet a new value',
        update({ _id: 1 }, { $addToSet: { tags: 'accessories' } }),
        [
          {
            _id: 1,
            item: 'camera',
            tags: ['electronics', 'camera', 'accessories'],
            letters: [{ b: 2, a: 1 }],
          },
        ],
      ],
      [
        '$addToSet a value already there',
        update({ _id: 1 }, { $addToSet: { tags: 'camera' } }),
        [{ _id: 1, item: 'camera', tags: ['electronics', 'camera'], letters: [{ b: 2, a: 1 }] }],
      ],
      [
        '$addToSet $each',
        update({ _id: 1 }, { $addToSet: { tags: { $each: ['camera', 'electronics', 'accessories'] } } }),
        [
          {
            _id: 1,
            item: 'camera',
            tags: ['electronics', 'camera', 'accessories'],
            letters: [{ b: 2, a: 1 }],
          },
        ],
      ],
      [
        '$addToSet compares documents field by field in order',
        update({ _id: 1 }, { $addToSet: { letters: { a: 1, b: 2 } } }),
        [
          {
            _id: 1,
            item: 'camera',
            tags: ['electronics', 'camera'],
            letters: [
              { b: 2, a: 1 },
              { a: 1, b: 2 },
            ],
          },
        ],
        [{ _id: 1, item: 'camera', tags: ['electronics', 'camera'], letters: [{ b: 2, a: 1 }] }],
      ],
    ],
  ),
];

const STUDENT = {
  _id: 1,
  alias: ['The American Cincinnatus'],
  mobile: '555-555-5555',
  nmae: { first: 'george', last: 'washington' },
};
const fields = [
  ...withDocs(
    [STUDENT],
    [
      [
        '$rename a field (the new name goes last)',
        update({ _id: 1 }, { $rename: { nmae: 'name' } }),
        [{ _id: 1, alias: STUDENT.alias, mobile: STUDENT.mobile, name: STUDENT.nmae }],
      ],
      [
        '$rename into an embedded document',
        update({ _id: 1 }, { $rename: { mobile: 'contact.mobile' } }),
        [{ _id: 1, alias: STUDENT.alias, nmae: STUDENT.nmae, contact: { mobile: '555-555-5555' } }],
      ],
      [
        '$rename a missing field does nothing',
        update({ _id: 1 }, { $rename: { wife: 'spouse' } }),
        [STUDENT],
      ],
      [
        '$currentDate sets a Date',
        update({ _id: 1 }, { $currentDate: { lastModified: true } }),
        [{ ...STUDENT, lastModified: expect.any(Date) }],
      ],
      [
        '$currentDate with $type "date"',
        update({ _id: 1 }, { $currentDate: { 'cancellation.date': { $type: 'date' } } }),
        [{ ...STUDENT, cancellation: { date: expect.any(Date) } }],
      ],
    ],
  ),
];

const upserts = [
  ...withDocs(
    [{ _id: 2, item: 'pear' }],
    [
      [
        '$setOnInsert applies when an upsert inserts',
        update({ _id: 1 }, { $set: { item: 'apple' }, $setOnInsert: { defaultQty: 100 } }, { upsert: true }),
        [
          { _id: 1, defaultQty: 100, item: 'apple' },
          { _id: 2, item: 'pear' },
        ],
      ],
      [
        '$setOnInsert does nothing when the document exists',
        update({ _id: 2 }, { $set: { qty: 5 }, $setOnInsert: { defaultQty: 100 } }, { upsert: true }),
        [{ _id: 2, item: 'pear', qty: 5 }],
      ],
      [
        'an upsert starts from the equality conditions of the filter',
        update({ _id: 3, 'size.uom': 'cm', qty: { $gt: 1 } }, { $set: { item: 'fig' } }, { upsert: true }),
        [
          { _id: 2, item: 'pear' },
          { _id: 3, size: { uom: 'cm' }, item: 'fig' },
        ],
      ],
      [
        'an update without upsert changes nothing when nothing matches',
        update({ _id: 9 }, { $set: { item: 'kiwi' } }),
        [{ _id: 2, item: 'pear' }],
      ],
    ],
  ),
];

export const UPDATE_CASES: Record<string, FidelityCase[]> = {
  '$set and $unset': set,
  '$inc, $mul, $min, $max': arithmetic,
  'array update operators': arrays,
  '$rename and $currentDate': fields,
  'upserts and $setOnInsert': upserts,
};
