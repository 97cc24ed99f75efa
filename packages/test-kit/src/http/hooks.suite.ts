import type { Document } from '@store/common';
import type { HookContext, ResourceHooks, WriteHookContext } from '@store/core';
import { describe, expect, it } from 'vitest';
import { ids, type Start } from './fixtures';
import { expectProblem, field, type ReplyJson, readStored } from './harness';
import { hiddenAndSchemaTests } from './hidden-schema.suite';
import { hookContextTests } from './hook-context.suite';
import { related, storedTasks, TASKS, todo } from './hook-fixtures';

/** An error a hook throws: the `status` and `code` it carries ask for the answer. */
const refusal = (extra: object) => Object.assign(new Error('Not today, the hook said.'), extra);

/** `beforeRead`, `beforeWrite`, `afterRead` over HTTP, then `hidden` and `schema` (issue 6). */
export function hookTests(start: Start): void {
  describe('hooks.beforeRead', () => beforeReadTests(start));
  describe('hooks.beforeWrite', () => beforeWriteTests(start));
  describe('hooks.afterRead', () => afterReadTests(start));
  describe('hook errors with a 5xx status', () => hookFailureTests(start));
  describe('hooks.afterWrite, beforeDelete, afterDelete', () => writeHookTests(start));
  describe('resources.<name>.softDelete', () => softDeleteTests(start));
  hookContextTests(start);
  hiddenAndSchemaTests(start);
}

function beforeReadTests(start: Start): void {
  const openTasks = { tasks: { hooks: { beforeRead: () => ({ done: false }) } } };

  it.each([
    ['a list', '/tasks', ['t1', 't3']],
    ['a list with its own filter', '/tasks?list_id=1', ['t1']],
    [
      'a $query $or, which cannot escape it',
      `/tasks?$query=${encodeURIComponent('{"$or":[{"done":true},{"list_id":2}]}')}`,
      ['t3'],
    ],
    ['a nested route', '/lists/1/tasks', ['t1']],
  ])('ANDs its filter into %s', async (_what, path, expected) => {
    const api = await todo(start, openTasks);
    const reply = await api.get(path);
    expect(reply.status, reply.text).toBe(200);
    expect(ids(reply)).toEqual(expected);
  });

  it('answers 404 for a single document outside its filter, 200 inside', async () => {
    const api = await todo(start, openTasks);
    expectProblem(await api.get('/tasks/t2'), 404, 'not_found');
    expect((await api.get('/tasks/t1')).json).toMatchObject({ _id: 't1', done: false });
  });

  it('counts only the documents its filter lets through', async () => {
    const api = await todo(start, openTasks);
    expect((await api.get('/tasks?$count=1')).json).toEqual({ count: 2 });
    expect((await api.get('/tasks?$count=1&done=true')).json).toEqual({ count: 0 });
  });

  it('filters the documents $populate brings, on a list and a single document', async () => {
    const api = await todo(start, openTasks);
    expect(related(await api.get('/lists?$populate=tasks'), 'tasks')).toEqual([
      [1, ['t1']],
      [2, ['t3']],
    ]);
    expect(ids({ json: field((await api.get('/lists/2?$populate=tasks')).json, 'tasks') })).toEqual(['t3']);
  });

  it('filters the documents $fill brings', async () => {
    const api = await todo(start, { lists: { hooks: { beforeRead: () => ({ name: 'Home' }) } } });
    expect(related(await api.get('/tasks?$fill=lists'), 'lists')).toEqual([
      ['t1', [1]],
      ['t2', [1]],
      ['t3', []],
      ['t4', []],
    ]);
  });

  it('reads a $$flag: ?$$list=2 narrows every read, without it nothing is added', async () => {
    const beforeRead = (ctx: HookContext) =>
      ctx.flags.list === undefined ? undefined : { list_id: Number(ctx.flags.list) };
    const api = await todo(start, { tasks: { hooks: { beforeRead } } });
    expect(ids(await api.get('/tasks?$$list=2'))).toEqual(['t3', 't4']);
    expect((await api.get('/tasks?$count=1&$$list=1')).json).toEqual({ count: 2 });
    expect(ids(await api.get('/lists/1/tasks?$$list=2'))).toEqual([]);
    expect(ids(await api.get('/tasks'))).toEqual(['t1', 't2', 't3', 't4']);
  });

  it('receives the request context: resource, operation, flags, query, no user, and a db it can query', async () => {
    const seen: unknown[] = [];
    const beforeRead = async (ctx: HookContext) => {
      seen.push({
        resource: ctx.resource.name,
        operation: ctx.operation,
        flags: { ...ctx.flags },
        limit: ctx.query.limit,
        user: ctx.user,
      });
      const shared = await ctx.db.collection('lists').find({ shared: true }).toArray();
      return { list_id: { $in: shared.map((list) => list._id) } };
    };
    const api = await todo(start, { tasks: { hooks: { beforeRead } } });
    expect(ids(await api.get('/tasks?$limit=5&$$view=shared'))).toEqual(['t3', 't4']);
    expect(seen).toEqual([
      { resource: 'tasks', operation: 'read', flags: { view: 'shared' }, limit: 5, user: null },
    ]);
  });

  it('ends a read with the status it throws, on the route and through $populate', async () => {
    const beforeRead = () => {
      throw refusal({ status: 403 });
    };
    const api = await todo(start, { tasks: { hooks: { beforeRead } } });
    expectProblem(await api.get('/tasks'), 403, 'forbidden');
    expectProblem(await api.get('/lists?$populate=tasks'), 403, 'forbidden');
    expect((await api.get('/lists')).status).toBe(200);
  });
}

type Hook = NonNullable<ResourceHooks['beforeWrite']>;
type AfterRead = NonNullable<ResourceHooks['afterRead']>;
const upperInPlace: Hook = (ctx) => {
  ctx.body.title = String(ctx.body.title).toUpperCase();
  ctx.body.by = ctx.operation;
};
const upperReturned: Hook = (ctx) => ({
  ...ctx.body,
  title: String(ctx.body.title).toUpperCase(),
  by: ctx.operation,
});
const [T1] = TASKS;

function beforeWriteTests(start: Start): void {
  it.each([
    ['changing ctx.body', upperInPlace],
    ['returning a new body', upperReturned],
  ])('stores and answers what the hook made, %s', async (_how, beforeWrite) => {
    const api = await todo(start, { tasks: { hooks: { beforeWrite } } });
    const cases: Array<[string, string, Document, number, Document]> = [
      ['POST', '/tasks', { _id: 't9', title: 'new' }, 201, { _id: 't9', title: 'NEW', by: 'create' }],
      ['PUT', '/tasks/t2', { title: 'put' }, 200, { _id: 't2', title: 'PUT', by: 'update' }],
      ['PATCH', '/tasks/t1', { title: 'patch' }, 200, { ...T1, title: 'PATCH', by: 'update' }],
    ];
    for (const [method, path, body, status, expected] of cases) {
      const reply = await api.request(method, path, { body });
      expect({ method, status: reply.status, json: reply.json }).toEqual({ method, status, json: expected });
      expect(await readStored(api, 'tasks', { _id: expected._id })).toEqual(expected);
    }
  });

  it('sees a PATCH as its $set (dotted keys kept) and the stored document as previous on PUT', async () => {
    const seen: unknown[] = [];
    const beforeWrite = (ctx: WriteHookContext) => {
      seen.push([ctx.method, { ...ctx.body }, ctx.previous?._id ?? null]);
    };
    const api = await todo(start, { tasks: { hooks: { beforeWrite } } });
    await api.request('POST', '/tasks', { body: { _id: 't9', title: 'x' } });
    await api.request('PUT', '/tasks/t2', { body: { title: 'y' } });
    await api.request('PATCH', '/tasks/t1', { body: { 'meta.tag': 'red' } });
    expect(seen).toEqual([
      ['POST', { _id: 't9', title: 'x' }, null],
      ['PUT', { title: 'y' }, 't2'],
      ['PATCH', { 'meta.tag': 'red' }, null],
    ]);
    expect(await readStored(api, 'tasks', { _id: 't1' })).toEqual({ ...T1, meta: { tag: 'red' } });
  });

  it.each([
    ['POST', '/tasks', { status: 403 }, 403, 'forbidden'],
    ['PUT', '/tasks/t1', { status: 403 }, 403, 'forbidden'],
    ['PATCH', '/tasks/t1', { status: 403 }, 403, 'forbidden'],
    ['POST', '/tasks', { status: 422, code: 'title_taken' }, 422, 'title_taken'],
    ['PUT', '/tasks/t1', { status: 422, code: 'title_taken' }, 422, 'title_taken'],
    ['PATCH', '/tasks/t1', { status: 422, code: 'title_taken' }, 422, 'title_taken'],
    ['POST', '/tasks', { status: 422 }, 422, 'unprocessable'],
    ['POST', '/tasks', { status: 409, code: 'Not Snake Case' }, 409, 'conflict'],
    ['POST', '/tasks', { status: 302 }, 403, 'forbidden'],
    ['POST', '/tasks', {}, 403, 'forbidden'],
  ])('%s %s refused with %o answers %i %s and stores nothing', async (method, path, thrown, status, code) => {
    const beforeWrite = () => {
      throw refusal(thrown);
    };
    const api = await todo(start, { tasks: { hooks: { beforeWrite } } });
    const before = await storedTasks(api);
    const reply = await api.request(method, path, { body: { _id: 't1', title: 'x' } });
    expectProblem(reply, status, code);
    // An error without an HTTP status (400-599) is refused with a fixed detail: its text stays private.
    const given = (thrown as { status?: number }).status;
    const statusGiven = given !== undefined && given >= 400;
    expect(field(reply.json, 'detail') === 'Not today, the hook said.').toBe(statusGiven);
    expect(await storedTasks(api)).toEqual(before);
  });
}

/** Reshapes each document to `{ _id, label }`. */
const label = (ctx: HookContext, docs: Document[]) =>
  docs.map((doc) => ({ _id: doc._id, label: `${ctx.resource.name}: ${doc.title ?? doc.name}` }));

function afterReadTests(start: Start): void {
  const t1 = { _id: 't1', label: 'tasks: Buy milk' };
  const t2 = { _id: 't2', label: 'tasks: Fix tap' };
  it.each([
    ['a list', 'tasks', 'GET', '/tasks?list_id=1', undefined, (j: ReplyJson) => j, [t1, t2]],
    ['a single document', 'tasks', 'GET', '/tasks/t1', undefined, (j: ReplyJson) => j, t1],
    ['a nested route', 'tasks', 'GET', '/lists/1/tasks', undefined, (j: ReplyJson) => j, [t1, t2]],
    [
      'a POST answer',
      'tasks',
      'POST',
      '/tasks',
      { _id: 't9', title: 'New' },
      (j: ReplyJson) => j,
      { _id: 't9', label: 'tasks: New' },
    ],
    [
      'a PUT answer',
      'tasks',
      'PUT',
      '/tasks/t1',
      { title: 'Put' },
      (j: ReplyJson) => j,
      { _id: 't1', label: 'tasks: Put' },
    ],
    [
      'a PATCH answer',
      'tasks',
      'PATCH',
      '/tasks/t1',
      { title: 'Patched' },
      (j: ReplyJson) => j,
      { _id: 't1', label: 'tasks: Patched' },
    ],
    [
      '$populate',
      'tasks',
      'GET',
      '/lists/1?$populate=tasks',
      undefined,
      (j: ReplyJson) => field(j, 'tasks'),
      [t1, t2],
    ],
    [
      '$fill',
      'lists',
      'GET',
      '/tasks/t3?$fill=lists',
      undefined,
      (j: ReplyJson) => field(j, 'lists'),
      [{ _id: 2, label: 'lists: Work' }],
    ],
  ])('reshapes the documents of %s', async (_what, resource, method, path, body, pick, expected) => {
    const api = await todo(start, { [resource]: { hooks: { afterRead: label } } });
    const reply = await api.request(method, path, { body });
    expect(reply.status, reply.text).toBeLessThan(300);
    expect(pick(reply.json)).toEqual(expected);
  });

  it('leaves the stored documents as they are', async () => {
    const api = await todo(start, { tasks: { hooks: { afterRead: label } } });
    await api.request('PATCH', '/tasks/t1', { body: { title: 'Oat milk' } });
    expect(await readStored(api, 'tasks', { _id: 't1' })).toEqual({ ...T1, title: 'Oat milk' });
  });

  it.each([
    ['one document fewer', '/tasks', (_ctx: HookContext, docs: Document[]) => docs.slice(1)],
    ['one document more', '/tasks/t1', (_ctx: HookContext, docs: Document[]) => [...docs, ...docs]],
    // Breaks the hook's type on purpose, as an untyped (JavaScript) hook can: one document, not an array.
    ['no array', '/lists/1/tasks', (() => ({ _id: 't1' })) as unknown as AfterRead],
    [
      'one document fewer through $populate',
      '/lists?$populate=tasks',
      (_ctx: HookContext, docs: Document[]) => docs.slice(1),
    ],
  ])('answers 500 internal, logged, when it returns %s', async (_what, path, afterRead) => {
    const logged: unknown[] = [];
    const logger = { error: (...args: unknown[]) => logged.push(args), warn: () => undefined };
    const api = await todo(start, { tasks: { hooks: { afterRead } } }, { config: { logger } });
    const reply = await api.get(path);
    expectProblem(reply, 500, 'internal');
    expect(reply.text).not.toContain('afterRead');
    expect(String(logged)).toContain('hooks.afterRead must return one document per document');
  });

  it.each([
    ['a POST', 'POST', '/tasks', { _id: 't9', title: 'New' }, 201, 't9', { _id: 't9', title: 'New' }],
    ['a PUT', 'PUT', '/tasks/t1', { title: 'Put' }, 200, 't1', { _id: 't1', title: 'Put' }],
    ['a PATCH', 'PATCH', '/tasks/t1', { title: 'Patched' }, 200, 't1', { title: 'Patched' }],
  ])(
    'answers the success of %s it fails after, with the _id only, and logs the failure',
    async (_what, method, path, body, status, id, stored) => {
      const logged: unknown[] = [];
      const logger = { error: (...args: unknown[]) => logged.push(args), warn: () => undefined };
      const afterRead = () => {
        throw new Error('afterRead broke: secret internals');
      };
      const api = await todo(start, { tasks: { hooks: { afterRead } } }, { config: { logger } });
      const reply = await api.request(method, path, { body });
      expect(reply.status, reply.text).toBe(status);
      expect(reply.json).toEqual({ _id: id });
      expect(await api.db.collection('tasks').findOne({ _id: id })).toMatchObject(stored);
      expect(String(logged)).toContain('hooks.afterRead failed after the');
    },
  );
}

function hookFailureTests(start: Start): void {
  it.each([
    [500, 'internal'],
    [503, 'service_unavailable'],
  ])('answer a thrown %i with a fixed detail, the message only logged', async (status, code) => {
    const logged: unknown[] = [];
    const logger = { error: (...args: unknown[]) => logged.push(args), warn: () => undefined };
    const beforeRead = () => {
      throw refusal({ status });
    };
    const api = await todo(start, { tasks: { hooks: { beforeRead } } }, { config: { logger } });
    const reply = await api.get('/tasks');
    expectProblem(reply, status, code);
    expect(reply.text).not.toContain('Not today');
    expect(logged.flat().map((item) => String(item instanceof Error ? item.message : item))).toContain(
      'Not today, the hook said.',
    );
  });

  it('answer a hook that reaches for an internal collection with a 500 that names nothing', async () => {
    const beforeRead = (ctx: HookContext) => {
      ctx.db.collection('no/such');
    };
    const api = await todo(start, { tasks: { hooks: { beforeRead } } });
    const reply = await api.get('/tasks');
    expectProblem(reply, 500, 'internal');
    expect(reply.text).not.toContain('no/such');
  });
}

/** Hooks around writes and deletes. */
function writeHookTests(start: Start): void {
  const json = (body: unknown) => ({ body });

  it('hands afterWrite the document before and after each POST, PUT and PATCH', async () => {
    const seen: Array<{ before: Document | null; after: Document }> = [];
    const afterWrite = (_ctx: HookContext, change: { before: Document | null; after: Document }) => {
      seen.push(change);
    };
    const api = await todo(start, { tasks: { hooks: { afterWrite } } });
    expect((await api.request('POST', '/tasks', json({ _id: 't9', title: 'New' }))).status).toBe(201);
    expect((await api.request('PATCH', '/tasks/t9', json({ done: true }))).status).toBe(200);
    expect((await api.request('PUT', '/tasks/t9', json({ title: 'Renamed' }))).status).toBe(200);
    expect(seen).toEqual([
      { before: null, after: { _id: 't9', title: 'New' } },
      { before: { _id: 't9', title: 'New' }, after: { _id: 't9', title: 'New', done: true } },
      { before: { _id: 't9', title: 'New', done: true }, after: { _id: 't9', title: 'Renamed' } },
    ]);
  });

  it('keeps the success of a stored write when afterWrite throws, and logs it', async () => {
    const logged: unknown[] = [];
    const logger = { error: (...args: unknown[]) => logged.push(args), warn: () => undefined };
    const afterWrite = () => {
      throw refusal({ status: 400 });
    };
    const api = await todo(start, { tasks: { hooks: { afterWrite } } }, { config: { logger } });
    const reply = await api.request('POST', '/tasks', json({ _id: 't9', title: 'New' }));
    expect(reply.status).toBe(201);
    expect((await api.get('/tasks/t9')).status).toBe(200);
    expect(String(logged.flat()[0])).toContain('hooks.afterWrite failed after the create was stored');
  });

  it('lets beforeDelete refuse with its status, deleting nothing', async () => {
    const beforeDelete = (_ctx: HookContext, doc: Document) => {
      if (doc.done === false) throw refusal({ status: 409, code: 'not_done' });
    };
    const api = await todo(start, { tasks: { hooks: { beforeDelete } } });
    const before = await storedTasks(api);
    expectProblem(await api.request('DELETE', '/tasks/t1'), 409, 'not_done');
    expect(await storedTasks(api)).toEqual(before);
    expect((await api.request('DELETE', '/tasks/t2')).status).toBe(204);
    expect((await api.get('/tasks/t2')).status).toBe(404);
  });

  it('hands afterDelete the deleted document and answers 204 even when it throws', async () => {
    const deleted: Document[] = [];
    const afterDelete = (_ctx: HookContext, doc: Document) => {
      deleted.push(doc);
      throw new Error('the audit log is down');
    };
    const api = await todo(start, { tasks: { hooks: { afterDelete } } });
    expect((await api.request('DELETE', '/tasks/t2')).status).toBe(204);
    expect(deleted).toEqual([TASKS[1]]);
    expectProblem(await api.request('DELETE', '/tasks/t2'), 404, 'not_found');
    expect(deleted).toHaveLength(1);
  });
}

/** Soft delete. */
function softDeleteTests(start: Start): void {
  const soft = { tasks: { softDelete: true }, lists: {} };

  it('sets deletedAt on DELETE, keeps the document, and leaves it out of every read', async () => {
    const api = await todo(start, soft);
    expect((await api.request('DELETE', '/tasks/t1')).status).toBe(204);
    const stored = await api.db.collection('tasks').findOne({ _id: 't1' });
    expect(stored?.deletedAt).toBeInstanceOf(Date);
    expectProblem(await api.get('/tasks/t1'), 404, 'not_found');
    expect(ids(await api.get('/tasks'))).toEqual(['t2', 't3', 't4']);
    expect((await api.get('/tasks?$count=1')).json).toEqual({ count: 3 });
    expect(ids(await api.get('/lists/1/tasks'))).toEqual(['t2']);
    const populated = await api.get('/lists/1?$populate=tasks');
    expect(ids({ json: field(populated.json, 'tasks') })).toEqual(['t2']);
    expectProblem(await api.request('DELETE', '/tasks/t1'), 404, 'not_found');
    expectProblem(await api.request('PATCH', '/tasks/t1', { body: { done: true } }), 404, 'not_found');
  });

  it('shows soft-deleted documents to a read with $$withDeleted=1', async () => {
    const api = await todo(start, soft);
    await api.request('DELETE', '/tasks/t1');
    expect(ids(await api.get('/tasks?$$withDeleted=1'))).toEqual(['t1', 't2', 't3', 't4']);
    expect((await api.get('/tasks/t1?$$withDeleted=1')).status).toBe(200);
  });

  it('lets no request write deletedAt, so no client undeletes', async () => {
    const api = await todo(start, soft);
    await api.request('DELETE', '/tasks/t2');
    expectProblem(await api.request('PATCH', '/tasks/t1', { body: { deletedAt: null } }), 403, 'forbidden');
    expectProblem(
      await api.request('POST', '/tasks', { body: { _id: 't9', deletedAt: 1 } }),
      403,
      'forbidden',
    );
  });

  it('deletes for good without softDelete', async () => {
    const api = await todo(start, {});
    expect((await api.request('DELETE', '/tasks/t1')).status).toBe(204);
    expect(await api.db.collection('tasks').findOne({ _id: 't1' })).toBeNull();
  });
}
