/** Fixtures of the hook, hidden-field and schema suites: lists and their tasks, seeded past every hook. */

import type { Document } from '@store/common';
import type { ResourceConfig, StoreConfig } from '@store/core';
import { ids, type Start } from './fixtures';
import { type Api, asArray, field, type ReplyJson } from './harness';

/** Two lists, four tasks (`list_id`), each with a `secret` the hidden-field tests hide. */
const LISTS = [
  { _id: 1, name: 'Home', shared: false, secret: 'hush-l1' },
  { _id: 2, name: 'Work', shared: true, secret: 'hush-l2' },
];
export const TASKS = [
  { _id: 't1', title: 'Buy milk', done: false, list_id: 1, secret: 'hush-t1' },
  { _id: 't2', title: 'Fix tap', done: true, list_id: 1, secret: 'hush-t2' },
  { _id: 't3', title: 'Send report', done: false, list_id: 2, secret: 'hush-t3' },
  { _id: 't4', title: 'Book room', done: true, list_id: 2, secret: 'hush-t4' },
] as const;

/** A logger that drops everything (500s are asserted by the tests that cause them). */
const silent = { error: () => undefined, warn: () => undefined };

/**
 * A store with `resources` (and `config`), {@link LISTS} and `tasks` written straight to the
 * database, so no hook or schema runs while seeding.
 */
export async function todo(
  start: Start,
  resources: Record<string, ResourceConfig>,
  { config = {}, tasks = TASKS }: { config?: StoreConfig; tasks?: readonly Document[] } = {},
): Promise<Api> {
  const api = await start({ logger: silent, ...config, resources });
  for (const list of LISTS) await api.db.collection('lists').insertOne(structuredClone(list));
  for (const task of tasks) await api.db.collection('tasks').insertOne(structuredClone(task));
  return api;
}

/** Every stored task, to compare before and after a refused write. */
export const storedTasks = (api: Api) =>
  api.db
    .collection('tasks')
    .find({}, { sort: { _id: 1 } })
    .toArray();

/** `[parent _id, ids of <field>]` per document of a list answer. */
export const related = (reply: { json: ReplyJson }, name: string) =>
  asArray(reply.json).map((doc) => [field(doc, '_id'), ids({ json: field(doc, name) })]);
