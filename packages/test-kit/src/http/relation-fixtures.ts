import type { Start } from './fixtures';
import { type Api, asArray, field, type ReplyJson } from './harness';

/** `{ _id: [length of <field>] }` of a list answer: how many related documents each got. */
export const counts = (reply: { json: ReplyJson }, name: string) =>
  asArray(reply.json).map((doc) => [field(doc, '_id'), asArray(field(doc, name)).length]);

/** Companies 1-2 (name, country), employees of both, their tasks and projects. */
export async function company(start: Start, config = {}): Promise<Api> {
  const api = await start(config);
  await api.seed('countries', [
    { _id: 'fr', name: 'France' },
    { _id: 'de', name: 'Germany' },
  ]);
  await api.seed('companies', [
    { _id: 1, name: 'Acme', country_id: 'fr' },
    { _id: 2, name: 'Bolt', country_ids: ['fr', 'de'] },
    { _id: 3, name: 'Void' },
  ]);
  await api.seed('employees', [
    { _id: 'e1', name: 'Cy', age: 40, active: true, team: 'red', company_id: 1 },
    { _id: 'e2', name: 'Ann', age: 30, active: true, team: 'blue', company_ids: [1, 2] },
    { _id: 'e3', name: 'Bob', age: 50, active: false, team: 'red', company_id: '1' },
    { _id: 'e4', name: 'Dee', age: 20, active: true, team: 'red', company_id: 2 },
  ]);
  await api.seed('tasks', [
    { _id: 't1', employee_id: 'e2' },
    { _id: 't2', employee_ids: ['e1', 'e2'] },
  ]);
  await api.seed('projects', [{ _id: 'p1', company_ids: [2] }]);
  return api;
}

/** One collection method call seen by {@link countingDb}. */
export interface Call {
  collection: string;
  method: string;
  args: unknown[];
}

/** Wraps a database so a test sees every collection method the store calls. */
export function countingDb<D extends { collection(name: string): object }>(db: D): { db: D; calls: Call[] } {
  const calls: Call[] = [];
  const collection = (name: string) =>
    new Proxy(db.collection(name), {
      get(target, property) {
        const value = Reflect.get(target, property);
        if (typeof value !== 'function' || typeof property !== 'string') return value;
        return (...args: unknown[]) => {
          calls.push({ collection: name, method: property, args });
          return value.apply(target, args);
        };
      },
    });
  const wrapped = new Proxy(db, {
    get(target, property) {
      if (property === 'collection') return collection;
      const value = Reflect.get(target, property);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { db: wrapped, calls };
}
