import { describe, expect, it } from 'vitest';
import { type AccessApi, type Caller, listed, startAccess } from './access-fixtures';
import type { Start } from './fixtures';
import { asArray, expectPassedOn, expectProblem, field } from './harness';

/** What one caller gets from each operation on a resource holding `a1` (ada's) and `b1` (bob's). */
interface Expected {
  /** `GET /<res>`: the ids, or the refusal's status. */
  list: string[] | number;
  /** `GET /<res>?$count=1`. */
  count: number;
  /** `GET`, `PATCH`, `PUT`, `DELETE` on `a1`, and `POST`: the status each answers. */
  get: number;
  patch: number;
  put: number;
  delete: number;
  create: number;
}

const everything: Expected = {
  list: ['a1', 'b1'],
  count: 2,
  get: 200,
  patch: 200,
  put: 200,
  delete: 204,
  create: 201,
};
const refused = (status: number): Expected => ({
  list: status,
  count: status,
  get: status,
  patch: status,
  put: status,
  delete: status,
  create: status,
});
const ownerOfA1: Expected = { ...everything, list: ['a1'], count: 1 };
const ownerOfB1: Expected = {
  list: ['b1'],
  count: 1,
  get: 404,
  patch: 404,
  put: 404,
  delete: 404,
  create: 201,
};

/** The rule table: rule x caller, every operation; "owner" and functions filter, others allow or refuse. */
const TABLE: [string, Caller, Expected][] = [
  ['open', 'anonymous', everything],
  ['open', 'bob', everything],
  ['members', 'anonymous', refused(401)],
  ['members', 'ada', everything],
  ['members', 'bob', everything],
  ['notes', 'anonymous', refused(401)],
  ['notes', 'ada', ownerOfA1],
  ['notes', 'bob', ownerOfB1],
  ['pins', 'ada', ownerOfA1],
  ['pins', 'bob', ownerOfB1],
  ['vault', 'anonymous', refused(403)],
  ['vault', 'ada', refused(403)],
  ['drafts', 'anonymous', { ...everything, patch: 401, put: 401, delete: 403, create: 401 }],
  ['drafts', 'ada', { ...everything, delete: 403 }],
  ['drafts', 'bob', { ...everything, patch: 404, put: 404, delete: 403 }],
  ['team-tasks', 'anonymous', refused(401)],
  ['team-tasks', 'ada', ownerOfA1],
  ['team-tasks', 'bob', ownerOfB1],
];

/** What one caller got: compared whole with its {@link Expected}. */
type Observed = Record<keyof Expected, unknown>;

async function observe(access: AccessApi, resource: string, caller: Caller): Promise<Observed> {
  const send = (method: string, path: string, json?: unknown) => access.send(caller, method, path, json);
  const list = await send('GET', `/${resource}`);
  const count = await send('GET', `/${resource}?$count=1`);
  return {
    list: list.status === 200 ? listed(list) : list.status,
    count: count.status === 200 ? field(count.json, 'count') : count.status,
    get: (await send('GET', `/${resource}/a1`)).status,
    patch: (await send('PATCH', `/${resource}/a1`, { title: 'patched' })).status,
    put: (await send('PUT', `/${resource}/a1`, { title: 'replaced' })).status,
    delete: (await send('DELETE', `/${resource}/a1`)).status,
    create: (await send('POST', `/${resource}`, { title: 'new' })).status,
  };
}

function ruleTable(start: Start): void {
  it.each(TABLE)('%s as %s: every operation answers as its rule says', async (resource, caller, expected) => {
    const access = await startAccess(start);
    expect(await observe(access, resource, caller)).toEqual(expected);
  });

  it.each([
    ['notes', 'anonymous', 401, 'unauthorized'],
    ['vault', 'ada', 403, 'forbidden'],
    ['vault', 'anonymous', 403, 'forbidden'],
  ] as const)('refuses %s to %s with a %i %s problem', async (resource, caller, status, code) => {
    const access = await startAccess(start);
    expectProblem(await access.send(caller, 'GET', `/${resource}`), status, code);
  });

  it('answers a method the path does not take with 405 before any rule, even without a session', async () => {
    const access = await startAccess(start);
    expectProblem(await access.send('anonymous', 'POST', '/notes/a1'), 405, 'method_not_allowed');
    expectProblem(await access.send('anonymous', 'PUT', '/vault'), 405, 'method_not_allowed');
  });

  it('changes nothing it refuses: other users documents survive PUT, PATCH and DELETE attempts', async () => {
    const access = await startAccess(start);
    const before = await access.api.db
      .collection('notes')
      .find({}, { sort: { _id: 1 } })
      .toArray();
    for (const method of ['PUT', 'PATCH', 'DELETE']) {
      expectProblem(await access.send('bob', method, '/notes/a1', { title: 'x' }), 404, 'not_found');
    }
    expect(
      await access.api.db
        .collection('notes')
        .find({}, { sort: { _id: 1 } })
        .toArray(),
    ).toEqual(before);
  });
}

function ownershipTests(start: Start): void {
  it('sets the owner on create from the session, and refuses a body naming another owner', async () => {
    const access = await startAccess(start);
    const created = await access.send('bob', 'POST', '/notes', { title: 'mine' });
    expect(created.json).toMatchObject({ title: 'mine', user_id: access.id.bob });
    const own = await access.send('bob', 'POST', '/notes', { title: 'also', user_id: access.id.bob });
    expect(own.status).toBe(201);
    expectProblem(
      await access.send('bob', 'POST', '/notes', { title: 'forged', user_id: access.id.ada }),
      403,
      'forbidden',
    );
    expect(listed(await access.send('ada', 'GET', '/notes'))).toEqual(['a1']);
  });

  it('never lets an update change the owner; PUT keeps the owner when the body leaves it out', async () => {
    const access = await startAccess(start);
    const steal = { user_id: access.id.ada };
    expectProblem(await access.send('bob', 'PATCH', '/notes/b1', steal), 403, 'forbidden');
    expectProblem(await access.send('bob', 'PUT', '/notes/b1', { title: 't', ...steal }), 403, 'forbidden');
    expectProblem(await access.send('bob', 'PATCH', '/notes/b1', { 'user_id.x': 1 }), 403, 'forbidden');
    const replaced = await access.send('bob', 'PUT', '/notes/b1', { title: 'kept' });
    expect(replaced.json).toEqual({ _id: 'b1', title: 'kept', user_id: access.id.bob });
    const same = await access.send('bob', 'PATCH', '/notes/b1', { title: 'same', user_id: access.id.bob });
    expect(same.json).toMatchObject({ title: 'same', user_id: access.id.bob });
  });

  it('binds the equality fields of a function rule: create sets them, update cannot change them', async () => {
    const access = await startAccess(start);
    const created = await access.send('ada', 'POST', '/team-tasks', { title: 'plan' });
    expect(created.json).toMatchObject({ title: 'plan', team: 'red' });
    expectProblem(await access.send('ada', 'POST', '/team-tasks', { team: 'blue' }), 403, 'forbidden');
    expectProblem(await access.send('ada', 'PATCH', '/team-tasks/a1', { team: 'blue' }), 403, 'forbidden');
  });
}

/** Stores the seeded notes (`a1` of ada, `b1` of bob) in `resource` too, with `extra` fields. */
async function copyNotes(access: AccessApi, resource: string, extra: Record<string, unknown> = {}) {
  const notes = await access.api.db.collection('notes').find({}).toArray();
  for (const note of notes) await access.api.db.collection(resource).insertOne({ ...note, ...extra });
}

/** Issue 15, finding 6: an "owner" rule on another operation binds the owner on create and update. */
function ownerBindingTests(start: Start): void {
  it('sets the owner on create under "authenticated" when update is "owner", so the author can edit', async () => {
    const access = await startAccess(start);
    const created = await access.send('ada', 'POST', '/drafts', { _id: 'd1', title: 'mine' });
    expect(created.json).toMatchObject({ _id: 'd1', user_id: access.id.ada });
    expect((await access.send('ada', 'PATCH', '/drafts/d1', { title: 'edited' })).status).toBe(200);
    expectProblem(await access.send('bob', 'PATCH', '/drafts/d1', { title: 'x' }), 404, 'not_found');
  });

  it('refuses a create naming another owner, so no one is made the owner of a forged document', async () => {
    const access = await startAccess(start);
    const forged = { _id: 'd2', title: 'forged', user_id: access.id.bob };
    expectProblem(await access.send('ada', 'POST', '/drafts', forged), 403, 'forbidden');
    expect(await access.api.db.collection('drafts').findOne({ _id: 'd2' })).toBeNull();
    const own = await access.send('ada', 'POST', '/drafts', { title: 'own', user_id: access.id.ada });
    expect(own.status).toBe(201);
  });

  it('stores an anonymous create without an owner, and refuses one naming an owner', async () => {
    const resources = { posts: { access: { read: 'public', create: 'public', delete: 'owner' } } };
    const access = await startAccess(start, resources);
    const named = { title: 'x', user_id: access.id.bob };
    expectProblem(await access.send('anonymous', 'POST', '/posts', named), 403, 'forbidden');
    const bare = await access.send('anonymous', 'POST', '/posts', { _id: 'p1', title: 'x' });
    expect(bare.json).toEqual({ _id: 'p1', title: 'x' });
  });

  it('never lets an update change the owner when only delete is "owner"', async () => {
    const resources = { posts: { access: { read: 'public', update: 'authenticated', delete: 'owner' } } };
    const access = await startAccess(start, resources);
    await copyNotes(access, 'posts');
    const steal = { user_id: access.id.ada };
    expectProblem(await access.send('ada', 'PATCH', '/posts/b1', steal), 403, 'forbidden');
    expectProblem(await access.send('ada', 'PUT', '/posts/b1', { title: 't', ...steal }), 403, 'forbidden');
    const replaced = await access.send('ada', 'PUT', '/posts/b1', { title: 'kept' });
    expect(replaced.json).toEqual({ _id: 'b1', title: 'kept', user_id: access.id.bob });
    expectProblem(await access.send('ada', 'DELETE', '/posts/b1'), 404, 'not_found');
  });
}

/** Issue 15, finding 5: `resources.<name>.protected` fields no request writes. */
function protectedFieldTests(start: Start): void {
  const resources = { accounts: { access: 'owner', protected: ['blocked', 'role'] } };
  const seed = (access: AccessApi) => copyNotes(access, 'accounts', { blocked: true, role: 'member' });

  it.each([
    ['POST', '/accounts', { title: 'x', role: 'admin' }, 'role'],
    ['POST', '/accounts', { title: 'x', blocked: false }, 'blocked'],
    ['PATCH', '/accounts/a1', { blocked: false }, 'blocked'],
    ['PATCH', '/accounts/a1', { blocked: true }, 'blocked'],
    ['PATCH', '/accounts/a1', { 'role.name': 'admin' }, 'role'],
    ['PUT', '/accounts/a1', { title: 'x', blocked: false }, 'blocked'],
    ['PUT', '/accounts/a1', { title: 'x', role: 'admin' }, 'role'],
  ])('refuses %s %s writing a protected field with 403 naming it', async (method, path, body, name) => {
    const access = await startAccess(start, resources);
    await seed(access);
    const before = await access.api.db.collection('accounts').find({}).toArray();
    const reply = await access.send('ada', method, path, body);
    expectProblem(reply, 403, 'forbidden');
    expect(field(reply.json, 'detail')).toContain(name);
    expect(await access.api.db.collection('accounts').find({}).toArray()).toEqual(before);
  });

  it('keeps protected fields through a PUT that leaves them out or repeats them', async () => {
    const access = await startAccess(start, resources);
    await seed(access);
    await access.send('ada', 'PUT', '/accounts/a1', { title: 'left out' });
    const repeated = await access.send('ada', 'PUT', '/accounts/a1', { title: 'same', blocked: true });
    expect(repeated.json).toMatchObject({ title: 'same', blocked: true, role: 'member' });
  });
}

function sideDoorTests(start: Start): void {
  it.each([
    ['a filter on the owner field', (ada: string) => `/notes?user_id=${ada}`, []],
    ['$query with $or', () => '/notes?$query={"$or":[{"_id":"a1"},{"title":{"$exists":true}}]}', ['b1']],
    ['$query naming the other owner', (ada: string) => `/notes?$query={"user_id":"${ada}"}`, []],
    ['a regex', () => '/notes?$regex=["title","."]', ['b1']],
  ])('keeps the rule outside %s: bob still sees only his own', async (_name, path, expected) => {
    const access = await startAccess(start);
    const reply = await access.send('bob', 'GET', path(access.id.ada));
    expect(reply.status, reply.text).toBe(200);
    expect(listed(reply)).toEqual(expected);
  });

  it('never counts other users documents, whatever the filter', async () => {
    const access = await startAccess(start);
    const reply = await access.send('bob', 'GET', '/notes?$count=1&$query={"$or":[{},{"_id":"a1"}]}');
    expect(reply.json).toEqual({ count: 1 });
  });

  it('filters $populate by the children rule, and refuses it without a session', async () => {
    const access = await startAccess(start);
    const reply = await access.send('bob', 'GET', '/folders?$populate=notes');
    expect(reply.json).toEqual([
      { _id: 'f1', name: 'shared', notes: [expect.objectContaining({ _id: 'b1' })] },
    ]);
    const one = await access.send('ada', 'GET', '/folders/f1?$populate=notes');
    expect(listed({ json: field(one.json, 'notes') })).toEqual(['a1']);
    expectProblem(await access.send('anonymous', 'GET', '/folders?$populate=notes'), 401, 'unauthorized');
    expectProblem(await access.send('ada', 'GET', '/folders?$populate=vault'), 403, 'forbidden');
  });

  it('filters $fill by the parents rule', async () => {
    const access = await startAccess(start);
    const reply = await access.send('bob', 'GET', '/comments?$fill=notes');
    expect(asArray(reply.json).map((c) => [field(c, '_id'), listed({ json: field(c, 'notes') })])).toEqual([
      ['ca', []],
      ['cb', ['b1']],
    ]);
  });

  it('filters nested routes by the children rule, and hides children of a parent one may not read', async () => {
    const access = await startAccess(start);
    expect(listed(await access.send('bob', 'GET', '/folders/f1/notes'))).toEqual(['b1']);
    expect((await access.send('bob', 'GET', '/folders/f1/notes?$count=1')).json).toEqual({ count: 1 });
    expectProblem(await access.send('bob', 'GET', '/notes/a1/comments'), 404, 'not_found');
    expect(listed(await access.send('ada', 'GET', '/notes/a1/comments'))).toEqual(['ca']);
    expectProblem(await access.send('anonymous', 'GET', '/folders/f1/notes'), 401, 'unauthorized');
  });
}

function configTests(start: Start): void {
  it('applies defaultAccess to resources without their own rule, declared or not', async () => {
    expect((await (await startAccess(start)).send('anonymous', 'GET', '/anything')).status).toBe(200);
    const locked = await startAccess(start, { tags: {} }, { defaultAccess: 'authenticated' });
    for (const path of ['/anything', '/tags']) {
      expectProblem(await locked.send('anonymous', 'GET', path), 401, 'unauthorized');
      expect((await locked.send('ada', 'GET', path)).status).toBe(200);
    }
    expect((await locked.send('anonymous', 'GET', '/open')).status).toBe(200);
  });

  it('routes only declared resources under restrict: true', async () => {
    const access = await startAccess(start, {}, { restrict: true });
    expectPassedOn(await access.send('ada', 'GET', '/anything'));
    expect(listed(await access.send('ada', 'GET', '/notes'))).toEqual(['a1']);
  });
}

/** Access rules over HTTP: the rule table, ownership, and every side door. */
export function accessTests(start: Start): void {
  describe('access rules', () => {
    ruleTable(start);
    ownershipTests(start);
    ownerBindingTests(start);
    protectedFieldTests(start);
    sideDoorTests(start);
    configTests(start);
  });
}
