import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { describeExampleSmoke } from '../../test-support/describe-example';

const serverFile = fileURLToPath(new URL('../src/server.js', import.meta.url));

/** A document as the example's API answers it: an `_id` and whatever fields it holds. */
interface Doc {
  _id: string;
  [field: string]: unknown;
}

/** A signed-in user of the example: their document, and requests sent with their session. */
interface Client {
  user: Doc;
  send(method: string, path: string, body?: unknown): Promise<{ status: number; json: unknown }>;
  /** POSTs `body` to `path`, expects 201 and gives the created document. */
  create(path: string, body: unknown): Promise<Doc>;
}

describeExampleSmoke('example server', serverFile, (running) => {
  /** One request, with `token`'s session when given; answers `{ status, json }` (`json` undefined when empty). */
  async function send(
    token: string | null,
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; json: unknown }> {
    const headers: Record<string, string> = body === undefined ? {} : { 'content-type': 'application/json' };
    if (token !== null) headers.authorization = `Bearer ${token}`;
    const reply = await fetch(`${running.base}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await reply.text();
    return { status: reply.status, json: text === '' ? undefined : JSON.parse(text) };
  }

  /** Signs `email` in as a new user would: asks for a code, reads it where the example prints it, verifies it. */
  async function signIn(email: string): Promise<Client> {
    expect((await send(null, 'POST', '/auth/magic-code/', { email })).status).toBe(202);
    const printed = new RegExp(`mail to ${email.replace(/\./g, '\\.')}\\nSubject: [^\\n]*\\n\\n(\\d{6})\\n`);
    const [, code] = await running.example.waitFor(printed);
    const verified = await send(null, 'POST', '/auth/magic-code/verify', { email, code });
    expect(verified.status).toBe(200);
    const { token, user } = verified.json as { token: string; user: Doc };
    return {
      user,
      send: (method, path, body) => send(token, method, path, body),
      async create(path, body) {
        const reply = await send(token, 'POST', path, body);
        expect(reply.status, JSON.stringify(reply.json)).toBe(201);
        return reply.json as Doc;
      },
    };
  }

  it('prints the code of POST /auth/magic-code/ to stdout (no SMTP_URL); verifying it gives a session /auth/session accepts', async () => {
    const json = { 'content-type': 'application/json' };
    const asked = await fetch(`${running.base}/auth/magic-code/`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ email: 'ada@example.com' }),
    });
    expect(asked.status).toBe(202);
    const [, code] = await running.example.waitFor(/mail to ada@example\.com\nSubject: [^\n]*\n\n(\d{6})\n/);

    const verified = await fetch(`${running.base}/auth/magic-code/verify`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ email: 'ada@example.com', code }),
    });
    expect(verified.status).toBe(200);
    const session = (await verified.json()) as { token: string; user: { email: string } };
    expect(session.user.email).toBe('ada@example.com');

    const current = await fetch(`${running.base}/auth/session`, {
      headers: { authorization: `Bearer ${session.token}` },
    });
    expect(current.status).toBe(200);
    expect(await current.json()).toMatchObject({ user: { email: 'ada@example.com' } });
  });

  it('prints the sign-in link of POST /auth/magic-link/, built from BASE_URL (here http://HOST:PORT)', async () => {
    const asked = await fetch(`${running.base}/auth/magic-link/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'bob@example.com' }),
    });
    expect(asked.status).toBe(202);
    const [, link] = await running.example.waitFor(/mail to bob@example\.com\nSubject: [^\n]*\n\n(\S+)\n/);
    expect(link).toMatch(new RegExp(`^${running.base}/auth/magic-link/[\\w-]{43}$`));
    const opened = await fetch(link ?? '', { redirect: 'manual' });
    expect(opened.status).toBe(200);
    expect(await opened.json()).toMatchObject({ user: { email: 'bob@example.com' } });
  });

  it('describes its API at /openapi.json, sign-in routes included, and serves the /docs page', async () => {
    const described = await send(null, 'GET', '/openapi.json');
    expect(described).toMatchObject({ status: 200, json: { info: { title: '@store example server' } } });
    const { paths } = described.json as { paths: Record<string, unknown> };
    expect(Object.keys(paths)).toEqual(expect.arrayContaining(['/notes', '/users/{id}', '/auth/session']));
    const page = await fetch(`${running.base}/docs`);
    expect([page.status, page.headers.get('content-type')]).toEqual([200, 'text/html; charset=utf-8']);
  });

  it('serves the users collection only to signed-in users, each their own document', async () => {
    expect((await fetch(`${running.base}/users`)).status).toBe(401);
    const cy = await signIn('cy@example.com');
    expect(await cy.send('GET', '/users')).toEqual({ status: 200, json: [cy.user] });
  });

  it('lets a user edit their own document but never its protected fields (blocked, role)', async () => {
    const dee = await signIn('dee@example.com');
    const path = `/users/${dee.user._id}`;
    for (const body of [{ blocked: false }, { role: 'admin' }, { name: 'Dee', blocked: true }]) {
      const reply = await dee.send('PATCH', path, body);
      expect(reply, JSON.stringify(body)).toMatchObject({ status: 403, json: { code: 'forbidden' } });
    }
    const put = await dee.send('PUT', path, { email: 'dee@example.com', blocked: false });
    expect(put).toMatchObject({ status: 403, json: { code: 'forbidden' } });
    expect(await dee.send('PATCH', path, { name: 'Dee' })).toMatchObject({
      status: 200,
      json: { name: 'Dee' },
    });
    expect((await dee.send('GET', path)).json).not.toHaveProperty('blocked');
  });

  describe('"owner" notes and their comments: two new users each reach only their own', () => {
    let ann: Client;
    let ben: Client;
    let annNotes: [Doc, Doc];
    let benNote: Doc;
    let annComment: Doc;
    let benComment: Doc;

    beforeAll(async () => {
      ann = await signIn('ann@example.com');
      ben = await signIn('ben@example.com');
      annNotes = [
        await ann.create('/notes', { title: 'Ann 1' }),
        await ann.create('/notes', { title: 'Ann 2' }),
      ];
      benNote = await ben.create('/notes', { title: 'Ben 1' });
      annComment = await ann.create('/comments', { note_id: annNotes[0]._id, text: 'mine' });
      // Ben may comment on an id he cannot see; the comment stays his, and Ann's note stays hidden from him.
      benComment = await ben.create('/comments', { note_id: annNotes[0]._id, text: 'on yours' });
    });

    const ids = (docs: unknown) => (docs as Doc[]).map((doc) => doc._id);

    it('sets user_id from the session on create, and refuses one naming someone else (403)', async () => {
      expect(annNotes[0]).toEqual({ _id: expect.any(String), title: 'Ann 1', user_id: ann.user._id });
      expect(benComment).toMatchObject({ user_id: ben.user._id, note_id: annNotes[0]._id });
      expect((await ann.send('POST', '/notes', { title: 'x', user_id: ben.user._id })).status).toBe(403);
    });

    it("lists and counts only the caller's own notes and comments", async () => {
      expect(ids((await ann.send('GET', '/notes')).json)).toEqual(ids(annNotes));
      expect(ids((await ben.send('GET', '/notes')).json)).toEqual([benNote._id]);
      expect((await ann.send('GET', '/notes?$count=1')).json).toEqual({ count: 2 });
      expect((await ben.send('GET', '/notes?$count=1')).json).toEqual({ count: 1 });
      expect((await ben.send('GET', '/comments')).json).toEqual([benComment]);
    });

    it('answers a single note to its owner', async () => {
      expect(await ann.send('GET', `/notes/${annNotes[1]._id}`)).toEqual({ status: 200, json: annNotes[1] });
    });

    it("populates, fills and nests only the caller's own documents", async () => {
      const populated = (await ann.send('GET', '/notes?$populate=comments')).json;
      expect((populated as Doc[]).map((note) => [note.title, note.comments])).toEqual([
        ['Ann 1', [annComment]],
        ['Ann 2', []],
      ]);
      expect((await ben.send('GET', '/notes?$populate=comments')).json).toEqual([
        { ...benNote, comments: [] },
      ]);
      expect((await ann.send('GET', '/comments?$fill=notes')).json).toEqual([
        { ...annComment, notes: [annNotes[0]] },
      ]);
      expect((await ben.send('GET', '/comments?$fill=notes')).json).toEqual([{ ...benComment, notes: [] }]);
      const nested = `/notes/${annNotes[0]._id}/comments`;
      expect(await ann.send('GET', nested)).toEqual({ status: 200, json: [annComment] });
      expect(await ann.send('GET', `${nested}?$count=1`)).toEqual({ status: 200, json: { count: 1 } });
    });

    it.each([
      ['GET', ''],
      ['GET', '?$populate=comments'],
      ['GET', '/comments'],
      ['PUT', ''],
      ['PATCH', ''],
      ['DELETE', ''],
    ])("answers 404 to %s on the other user's note%s, changing nothing", async (method, suffix) => {
      const body = method === 'PUT' || method === 'PATCH' ? { title: 'taken over' } : undefined;
      expect((await ben.send(method, `/notes/${annNotes[0]._id}${suffix}`, body)).status).toBe(404);
      expect((await ann.send(method, `/notes/${benNote._id}${suffix}`, body)).status).toBe(404);
      expect((await ann.send('GET', `/notes/${annNotes[0]._id}`)).json).toEqual(annNotes[0]);
      expect((await ben.send('GET', `/notes/${benNote._id}`)).json).toEqual(benNote);
    });

    it.each([
      ['GET', '/notes'],
      ['GET', '/notes?$count=1'],
      ['GET', '/notes?$populate=comments'],
      ['GET', '/comments?$fill=notes'],
      ['GET', '/notes/<ann>'],
      ['GET', '/notes/<ann>/comments'],
      ['POST', '/notes'],
      ['PATCH', '/notes/<ann>'],
      ['DELETE', '/notes/<ann>'],
    ])('answers 401 to an anonymous %s %s', async (method, path) => {
      const body = method === 'POST' || method === 'PATCH' ? { title: 'anonymous' } : undefined;
      const reply = await send(null, method, path.replace('<ann>', annNotes[0]._id), body);
      expect(reply).toMatchObject({ status: 401, json: { code: 'unauthorized' } });
    });

    it('lets the owner replace (keeping the owner), patch and delete their note', async () => {
      const path = `/notes/${annNotes[1]._id}`;
      const replaced = await ann.send('PUT', path, { title: 'Ann 2, rewritten' });
      expect(replaced).toEqual({ status: 200, json: { ...annNotes[1], title: 'Ann 2, rewritten' } });
      expect((await ann.send('PATCH', path, { user_id: ben.user._id })).status).toBe(403);
      const patched = await ann.send('PATCH', path, { pinned: true });
      expect(patched.json).toEqual({ ...annNotes[1], title: 'Ann 2, rewritten', pinned: true });
      expect((await ann.send('DELETE', path)).status).toBe(204);
      expect((await ann.send('GET', path)).status).toBe(404);
      expect((await ann.send('GET', '/notes?$count=1')).json).toEqual({ count: 1 });
      expect((await ben.send('GET', '/notes?$count=1')).json).toEqual({ count: 1 });
    });
  });
});
