import { ObjectId } from 'bson';

/** A small collection exercising strings, numbers stored as either type, dates, arrays and ObjectIds. */
export const POSTS = [
  {
    _id: 1,
    title: 'Hello World',
    views: 10,
    tags: ['a', 'b'],
    published: true,
    author: { name: 'Ann' },
    at: new Date('2024-01-01T00:00:00Z'),
    ref: new ObjectId('5f1d7f3e9d1b2c3a4b5c6d7e'),
  },
  {
    _id: 2,
    title: 'hello again',
    views: '10',
    tags: ['b'],
    published: 'true',
    author: { name: 'Bob' },
    at: new Date('2024-03-01T00:00:00Z'),
  },
  {
    _id: 3,
    title: 'Goodbye (for now)',
    views: 25,
    tags: [],
    published: false,
    author: { name: 'Ann' },
    at: new Date('2024-06-01T00:00:00Z'),
  },
  {
    _id: 4,
    title: 'a.b literal',
    views: 5,
    tags: ['c', 'a', 'd'],
    author: { name: 'Cy' },
    at: new Date('2023-12-31T23:59:59Z'),
  },
  { _id: 5, title: 'World news', views: 25, tags: ['a'], published: true, score: 7 },
];
