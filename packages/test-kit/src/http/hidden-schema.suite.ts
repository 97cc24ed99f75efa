import type { WriteHookContext } from '@store/core';
import { describe, expect, it } from 'vitest';
import { ids, type Start } from './fixtures';
import { expectProblem, field, readStored } from './harness';
import { storedTasks, TASKS, todo } from './hook-fixtures';

/** `hidden` fields and `schema` validation over HTTP (issue 6). */
export function hiddenAndSchemaTests(start: Start): void {
  describe('resources.<name>.hidden', () => hiddenTests(start));
  describe('resources.<name>.hidden inside arrays', () => hiddenInArraysTests(start));
  describe('resources.<name>.schema', () => schemaTests(start));
}

function hiddenTests(start: Start): void {
  const hidden = { tasks: { hidden: ['secret'] }, lists: { hidden: ['secret'] } };
  it.each([
    ['GET', '/tasks', undefined, 'Book room'],
    ['GET', '/tasks/t1', undefined, 'Buy milk'],
    ['GET', '/tasks?$select=secret,title', undefined, 'Buy milk'],
    ['GET', '/lists/1/tasks', undefined, 'Fix tap'],
    ['GET', '/lists?$populate=tasks', undefined, 'Send report'],
    ['GET', '/lists/2?$populate=tasks', undefined, 'Send report'],
    ['GET', '/tasks?$fill=lists', undefined, 'Work'],
    ['POST', '/tasks', { _id: 't9', title: 'New', secret: 'hush-new' }, 'New'],
    ['PUT', '/tasks/t1', { title: 'Put', secret: 'hush-put' }, 'Put'],
    ['PATCH', '/tasks/t1', { title: 'Patched', secret: 'hush-patch' }, 'Patched'],
  ])('never answers the hidden field: %s %s', async (method, path, body, shown) => {
    const api = await todo(start, hidden);
    const reply = await api.request(method, path, { body });
    expect(reply.status, reply.text).toBeLessThan(300);
    expect(reply.text).toContain(shown);
    expect(reply.text).not.toMatch(/secret|hush/);
  });

  it('still stores a hidden field a write sets', async () => {
    const api = await todo(start, hidden);
    await api.post('/tasks', { _id: 't9', title: 'New', secret: 'hush-new' });
    expect(await readStored(api, 'tasks', { _id: 't9' })).toEqual({
      _id: 't9',
      title: 'New',
      secret: 'hush-new',
    });
  });

  it.each([
    '/tasks?secret=hush-t1',
    '/tasks?secret:ne=x',
    '/tasks?secret.part=x',
    `/tasks?$query=${encodeURIComponent('{"$or":[{"secret":"hush-t1"}]}')}`,
    `/tasks?$query=${encodeURIComponent('{"$and":[{"done":true},{"$nor":[{"secret":"x"}]}]}')}`,
    '/tasks?$sort=secret',
    '/tasks?$sort=-secret',
    '/tasks?$count=1&secret=hush-t1',
    '/lists/1/tasks?secret=hush-t1',
    '/lists?$populate=tasks&secret=hush-l1',
  ])('answers 400 invalid_query to a filter or $sort on it: %s', async (path) => {
    const api = await todo(start, hidden);
    const reply = await api.get(path);
    expectProblem(reply, 400, 'invalid_query');
    expect(field(reply.json, 'detail')).toContain('hidden');
  });
}

/** Issue 15, finding 4: hidden paths inside arrays of embedded documents, at any depth. */
function hiddenInArraysTests(start: Start): void {
  const hidden = { tasks: { hidden: ['cards.cvv', 'wallet.cards.cvv'] } };
  const card = (n: number) => ({ number: `num-${n}`, cvv: `cvv-${n}` });
  const tasks = TASKS.map((task, i) => ({
    ...task,
    cards: [card(i * 2), card(i * 2 + 1)],
    wallet: [{ cards: [card(100 + i)] }],
  }));
  const start2 = () => todo(start, hidden, { tasks });
  const body = { title: 'Carded', cards: [card(50)], wallet: [{ cards: [card(51)] }] };

  it.each([
    ['GET', '/tasks', undefined],
    ['GET', '/tasks/t1', undefined],
    ['GET', '/tasks?$select=cards,wallet', undefined],
    ['GET', '/tasks?$select=cards.cvv,title', undefined],
    ['GET', '/lists/1/tasks', undefined],
    ['GET', '/lists?$populate=tasks', undefined],
    ['GET', '/lists/2?$populate=tasks', undefined],
    ['POST', '/tasks', { _id: 't9', ...body }],
    ['PUT', '/tasks/t1', body],
    ['PATCH', '/tasks/t1', body],
  ])('never answers a hidden field inside arrays: %s %s', async (method, path, sent) => {
    const api = await start2();
    const reply = await api.request(method, path, { body: sent });
    expect(reply.status, reply.text).toBeLessThan(300);
    expect(reply.text).toMatch(/num-|"cards"/);
    expect(reply.text).not.toContain('cvv');
  });

  it.each([
    '/tasks?cards.cvv=cvv-0',
    '/tasks?cards.0.cvv=cvv-0',
    '/tasks?cards.1.cvv:startsWith=cvv',
    '/tasks?cards.0.cvv:exists=true',
    '/tasks?wallet.0.cards.0.cvv=cvv-100',
    '/tasks?cards.0=x',
    '/tasks?cards:size=2',
    `/tasks?$regex=${encodeURIComponent('["cards.0.cvv","^cvv-0$"]')}`,
    `/tasks?$query=${encodeURIComponent('{"cards":{"$elemMatch":{"cvv":"cvv-0"}}}')}`,
    `/tasks?$query=${encodeURIComponent('{"$or":[{"cards.0.cvv":{"$regex":"^cvv"}}]}')}`,
    `/tasks?$query=${encodeURIComponent('{"wallet":{"$elemMatch":{"cards.cvv":{"$exists":true}}}}')}`,
    '/tasks?$sort=cards.0.cvv',
    '/tasks?$count=1&cards.1.cvv=cvv-1',
    '/lists/1/tasks?cards.0.cvv=cvv-0',
  ])('answers 400 invalid_query to a filter or $sort reaching it: %s', async (path) => {
    const api = await start2();
    const reply = await api.get(path);
    expectProblem(reply, 400, 'invalid_query');
    expect(field(reply.json, 'detail')).toContain('hidden');
  });

  it.each([
    `/tasks?$query=${encodeURIComponent('{"cards.$.cvv":"cvv-0"}')}`,
    `/tasks?$query=${encodeURIComponent('{"cards.$[].cvv":"cvv-0"}')}`,
  ])('answers 400 to a positional path reaching it: %s', async (path) => {
    const api = await start2();
    expect((await api.get(path)).status).toBe(400);
  });

  it('still filters on the other fields of the array elements', async () => {
    const api = await start2();
    const reply = await api.get('/tasks?cards.0.number=num-0');
    expect(ids(reply)).toEqual(['t1']);
  });
}

const TASK_SCHEMA = {
  type: 'object',
  required: ['title'],
  properties: {
    title: { type: 'string', minLength: 1 },
    done: { type: 'boolean' },
    list_id: { type: 'integer' },
  },
  additionalProperties: false,
};
const VALID = [
  { _id: 't1', title: 'Buy milk', done: false, list_id: 1 },
  { _id: 'bare', done: false },
];
const required = (field: string) => ({ field, message: `must have required property '${field}'` });

function schemaTests(start: Start): void {
  const schema = { tasks: { schema: TASK_SCHEMA } };
  it.each([
    ['POST', '/tasks', { done: 'no' }, [required('title'), { field: 'done', message: 'must be boolean' }]],
    [
      'POST',
      '/tasks',
      { title: 'x', colour: 'red' },
      [{ field: 'colour', message: 'must NOT have additional properties' }],
    ],
    ['PUT', '/tasks/t1', { title: 7 }, [{ field: 'title', message: 'must be string' }]],
    ['PUT', '/tasks/t1', { done: true }, [required('title')]],
    ['PATCH', '/tasks/bare', { done: true }, [required('title')]],
    [
      'PATCH',
      '/tasks/t1',
      { title: '' },
      [{ field: 'title', message: 'must NOT have fewer than 1 characters' }],
    ],
    [
      'PATCH',
      '/tasks/t1',
      { done: 'yes', list_id: 1.5 },
      [
        { field: 'done', message: 'must be boolean' },
        { field: 'list_id', message: 'must be integer' },
      ],
    ],
    [
      'PATCH',
      '/tasks/t1',
      { 'meta.tag': 'red' },
      [{ field: 'meta', message: 'must NOT have additional properties' }],
    ],
  ])(
    '%s %s %j answers 400 invalid_body naming each field, storing nothing',
    async (method, path, body, errors) => {
      const api = await todo(start, schema, { tasks: VALID });
      const reply = await api.request(method, path, { body });
      expectProblem(reply, 400, 'invalid_body');
      expect(field(reply.json, 'errors')).toEqual(errors);
      expect(await storedTasks(api)).toEqual([VALID[1], VALID[0]]);
    },
  );

  it.each([
    ['POST', '/tasks', { _id: 't9', title: 'New' }, 201],
    ['PUT', '/tasks/t1', { _id: 't1', title: 'Put', done: true }, 200],
    ['PATCH', '/tasks/bare', { title: 'Titled at last' }, 200],
  ])(
    '%s %s %j passes: _id is left out of validation, a PATCH is checked merged',
    async (method, path, body, status) => {
      const api = await todo(start, schema, { tasks: VALID });
      const reply = await api.request(method, path, { body });
      expect(reply.status, reply.text).toBe(status);
    },
  );

  it('leaves the timestamps out of validation when they are on', async () => {
    const api = await todo(start, { tasks: { schema: TASK_SCHEMA, timestamps: true } }, { tasks: VALID });
    expect((await api.post('/tasks', { title: 'New' })).status).toBe(201);
    const patched = await api.request('PATCH', '/tasks/t1', { body: { done: true } });
    expect(patched.status, patched.text).toBe(200);
    expect(field(patched.json, 'updatedAt')).toEqual(expect.any(String));
  });

  it('validates the body beforeWrite made', async () => {
    const beforeWrite = (ctx: WriteHookContext) => ({ title: 'Untitled', ...ctx.body });
    const api = await todo(start, { tasks: { schema: TASK_SCHEMA, hooks: { beforeWrite } } });
    expect((await api.post('/tasks', { _id: 't9' })).json).toEqual({ _id: 't9', title: 'Untitled' });
  });
}
