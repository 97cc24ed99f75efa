import { type Api, asArray, field, type ReplyJson, type useServer } from './harness';

/** What a suite file receives: start a served store on a fresh database. */
export type Start = ReturnType<typeof useServer>;

/** The documents the query suites filter. */
const PEOPLE = [
  {
    _id: 1,
    name: 'Ann',
    age: 31,
    active: true,
    tags: ['a', 'b'],
    author: { name: 'Zed' },
    born: { $date: '1993-02-01T00:00:00Z' },
  },
  {
    _id: 2,
    name: 'bob',
    age: 25,
    active: false,
    tags: ['b'],
    author: { name: 'Ann' },
    born: { $date: '1999-07-15T00:00:00Z' },
  },
  {
    _id: 3,
    name: 'Cy',
    age: '40',
    active: true,
    tags: [],
    author: { name: 'Zed' },
    born: { $date: '1984-12-24T00:00:00Z' },
  },
  { _id: 4, name: 'Dee', age: 25, tags: ['a', 'b', 'c'], ref: { $oid: '5f1d7f3e9d1b2c3a4b5c6d7e' } },
];

/** The `_id`s of a list answer, in order. */
export const ids = (reply: { json: ReplyJson }) => asArray(reply.json).map((doc) => field(doc, '_id'));

/** A store holding {@link PEOPLE} under `/people`. */
export async function startWithPeople(start: Start, config = {}): Promise<Api> {
  const api = await start(config);
  await api.seed('people', PEOPLE);
  return api;
}
