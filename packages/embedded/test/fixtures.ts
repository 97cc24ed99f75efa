/** Documents the engine conformance tests share: every value kind a stored document can hold. */

import type { Document, StoreCollection, StoreDb } from '@store/common';
import { ObjectId } from 'bson';

/** A fixed ObjectId some documents reference. */
export const REF = new ObjectId('0123456789abcdef01234567');

/** Four people, with numbers, numeric strings, dates, arrays, sub-documents, ObjectIds and nulls. */
export const PEOPLE: readonly Document[] = [
  {
    _id: 'ann',
    name: 'Ann',
    age: 31,
    tags: ['a', 'b'],
    joined: new Date('2020-01-01T00:00:00Z'),
    active: true,
    address: { city: 'Paris', zip: '75001' },
    ref: REF,
  },
  {
    _id: 'bob',
    name: 'Bob',
    age: 25,
    tags: ['b'],
    joined: new Date('2021-06-01T00:00:00Z'),
    active: false,
    address: { city: 'Lyon' },
  },
  {
    _id: 'cid',
    name: 'Cid',
    age: '40',
    tags: [],
    joined: new Date('2019-03-01T00:00:00Z'),
    address: { city: 'Paris' },
  },
  {
    _id: 'dee',
    name: 'dee anne',
    age: 52,
    tags: ['a', 'b', 'c'],
    active: true,
    score: null,
    items: [{ sku: 'x', qty: 2 }],
  },
];

/** A fresh collection of `db` holding {@link PEOPLE}. */
export async function seedPeople(db: StoreDb, name = 'people'): Promise<StoreCollection> {
  const people = db.collection(name);
  for (const person of PEOPLE) await people.insertOne(person);
  return people;
}

/** The `_id`s of `docs`, in order. */
export const ids = (docs: readonly Document[]): unknown[] => docs.map((doc) => doc._id);
