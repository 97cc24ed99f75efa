/**
 * The `store` command (`serve`, `import`, `export`), run in-process through `runCli` with its output
 * captured, and as the built binary where the process itself matters (exit codes, signals).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EJSON, ObjectId } from 'bson';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, run, serving } from './serving';

const fixture = fileURLToPath(new URL('./fixtures/db.json', import.meta.url));
const bin = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const freshDir = () => mkdtempSync(join(tmpdir(), 'store-cli-'));

/** A request with this `Host` header (fetch cannot set one): its status, content type and JSON body. */
function withHost(
  base: string,
  host: string,
  method = 'GET',
  path = '/posts',
  body?: unknown,
): Promise<{ status: number; type: string | undefined; body: unknown }> {
  const headers: Record<string, string> = { host };
  if (body !== undefined) headers['content-type'] = 'application/json';
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${base}${path}`, { method, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
      });
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          type: res.headers['content-type'],
          body: text === '' ? undefined : JSON.parse(text),
        }),
      );
    });
    req.on('error', reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

/** A CORS preflight for a GET from `origin`. */
const preflight = (origin: string) => ({
  method: 'OPTIONS',
  headers: { origin, 'access-control-request-method': 'GET' },
});

describe('store --help and usage errors', () => {
  it.each([
    [[], /Usage: store <command>/],
    [['--help'], /serve +serve every resource/],
    [['serve', '--help'], /--seed <file>.*\n[\s\S]*--cors <origins>/],
    [
      ['serve', '--help'],
      /--allowed-hosts <names>[\s\S]*"loopback"\s+\(default: pages on localhost, 127\.0\.0\.1, \[::1\]/,
    ],
    [
      ['serve', '--help'],
      /On any\s+other address \(0\.0\.0\.0\) other machines can reach it and every Host is\s+answered/,
    ],
    [['import', '-h'], /json-server's db.json imports as is/],
    [
      ['import', '-h'],
      /"id" is stored as _id \(its value and type\s+kept[\s\S]*store serve shows it as id again/,
    ],
    [['export', '--help'], /to stdout without one/],
  ])('prints help for %j and exits 0', async (args, text) => {
    const cli = run(args);
    expect(await cli.exit).toBe(0);
    expect(cli.out()).toMatch(text);
  });

  it('prints the version', async () => {
    const cli = run(['--version']);
    expect(await cli.exit).toBe(0);
    expect(cli.out()).toBe('9.9.9');
  });

  it.each([
    [['launch'], /unknown command "launch"/],
    [['serve', '--prot', '3000'], /Unknown option '--prot'/],
    [['import'], /store import takes one file/],
    [['serve', '--port', 'http'], /--port must be a port number/],
    [
      ['export', '--db', 'mongodb://127.0.0.1:27017', '--data', 'd'],
      /--db and --data cannot be used together/,
    ],
    [['export', '--db', 'mongodb://127.0.0.1:27017'], /names no database: add one/],
    [['serve', '--cors', 'app.test'], /--cors: "app\.test" is not an origin/],
    [['serve', '--cors', 'https://app.test/'], /--cors: "https:\/\/app\.test\/" is not an origin/],
    [['serve', '--allowed-hosts', 'http://a.test'], /--allowed-hosts: "http:\/\/a\.test" is not a host name/],
    [['serve', '--allowed-hosts', 'a.test:8080'], /--allowed-hosts: "a\.test:8080" is not a host name/],
    [['serve', '--allowed-hosts', '*'], /--allowed-hosts takes names, not "\*"/],
  ])('refuses %j with exit code 2 and a clear message', async (args, message) => {
    const cli = run(args);
    expect(await cli.exit).toBe(2);
    expect(cli.err()).toMatch(message);
  });
});

describe('store serve', () => {
  it("answers json-server's fixture as json-server does: id kept as id, with its type", async () => {
    const { base, cli } = await serving(['--seed', fixture]);
    expect(cli.out()).toContain('seeded from');
    expect(cli.out()).toContain('left out of the seed (not arrays): profile');
    expect(cli.out()).toContain(
      'writes go to memory: lost when the command exits (--data <dir> keeps them); ' +
        `${fixture} is only read, never written`,
    );
    expect(await (await fetch(`${base}/posts/1`)).json()).toEqual({
      id: 1,
      title: 'json-server',
      author: 'typicode',
    });
    expect(await (await fetch(`${base}/comments?postId=1`)).json()).toEqual([
      { id: 1, body: 'some comment', postId: 1 },
      { id: 2, body: 'another comment', postId: 1 },
    ]);
    expect(await (await fetch(`${base}/posts/1/comments?_sort=id&_order=desc`)).json()).toEqual([
      { id: 2, body: 'another comment', postId: 1 },
      { id: 1, body: 'some comment', postId: 1 },
    ]);
    expect((await fetch(`${base}/nowhere/1/2/3`)).status).toBe(404);
    expect(await cli.stop()).toBe(0);
  });

  it('names the primary key _id with --no-id, and reads only its own query language with --no-dialects', async () => {
    const { base, cli } = await serving(['--seed', fixture, '--no-id', '--no-dialects']);
    expect(await (await fetch(`${base}/posts/1`)).json()).toEqual({
      _id: 1,
      title: 'json-server',
      author: 'typicode',
    });
    const foreign = await fetch(`${base}/posts?_sort=title`);
    expect(foreign.status).toBe(400);
    expect(await cli.stop()).toBe(0);
  });

  it.each([
    ['carries', [], true],
    ['leaves out', ['--no-dialects'], false],
  ] as const)('%s message (as detail) in its own 404 and Host refusal with %j', async (_, args, carries) => {
    const { base, cli } = await serving([...args]);
    const missing = await withHost(base, new URL(base).host, 'GET', '/nowhere/1/2/3');
    const refused = await withHost(base, 'evil.test');
    for (const [answer, status, code] of [
      [missing, 404, 'not_found'],
      [refused, 403, 'host_not_allowed'],
    ] as const) {
      const problem = answer.body as { detail: string; message?: string };
      expect(answer).toMatchObject({ status, body: { code } });
      expect(problem.message).toBe(carries ? problem.detail : undefined);
    }
    expect(await cli.stop()).toBe(0);
  });

  it('keeps a POSTed document across a restart with --data, and does not seed it again', async () => {
    const data = join(freshDir(), 'd');
    const first = await serving(['--data', data, '--seed', fixture]);
    expect(first.cli.out()).toContain(`engine: embedded (data in ${data})`);
    expect(first.cli.out()).toContain(`writes go to the data directory ${data}; ${fixture} is only read`);
    const created = await fetch(`${first.base}/notes`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'kept' }),
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: string };
    expect(await first.cli.stop()).toBe(0);

    const second = await serving(['--data', data, '--seed', fixture]);
    expect(second.cli.out()).toContain('--seed skipped: posts, comments already hold documents');
    expect(await (await fetch(`${second.base}/notes/${id}`)).json()).toEqual({ id, text: 'kept' });
    expect(await second.cli.stop()).toBe(0);
  });

  it('answers CORS preflights from any origin with --cors "*", from the listed ones with a list, and none with --cors off', async () => {
    const open = await serving(['--cors', '*']);
    expect(open.cli.out()).toContain('warning: --cors "*": any web page open in a browser');
    const allowed = await fetch(`${open.base}/posts`, preflight('http://app.test'));
    expect(allowed.status).toBe(204);
    expect(allowed.headers.get('access-control-allow-origin')).toBe('*');
    await open.cli.stop();
    const listed = await serving(['--cors', 'https://app.test, http://localhost:5173']);
    const app = await fetch(`${listed.base}/posts`, preflight('https://app.test'));
    expect(app.headers.get('access-control-allow-origin')).toBe('https://app.test');
    expect((await fetch(`${listed.base}/posts`, preflight('http://localhost:8080'))).status).toBe(403);
    await listed.cli.stop();
    const closed = await serving(['--cors', 'off']);
    expect((await fetch(`${closed.base}/posts`, preflight('http://localhost:5173'))).status).toBe(405);
    await closed.cli.stop();
  });

  it("lets --cors override the config's cors, and keeps the config's without the flag", async () => {
    const config = fileURLToPath(new URL('./fixtures/cors.config.mjs', import.meta.url));
    const configured = await serving(['--config', config]);
    expect(configured.cli.out()).toContain(
      "browsers: pages of other origins may call it as the config's cors says",
    );
    expect((await fetch(`${configured.base}/posts`, preflight('https://app.test'))).status).toBe(204);
    expect((await fetch(`${configured.base}/posts`, preflight('http://localhost:5173'))).status).toBe(403);
    await configured.cli.stop();
    const flagged = await serving(['--config', config, '--cors', 'off']);
    expect((await fetch(`${flagged.base}/posts`, preflight('https://app.test'))).status).toBe(405);
    await flagged.cli.stop();
  });

  it('limits each client by default, saying so in RateLimit headers', async () => {
    const { base, cli } = await serving([]);
    const answer = await fetch(`${base}/posts`);
    expect(answer.headers.get('ratelimit-policy')).toBe('"reads";q=1000;w=60');
    expect(answer.headers.get('ratelimit')).toMatch(/^"reads";r=999;t=\d+$/);
    await cli.stop();
  });

  it('serves the API reference at /docs and /openapi.json by default, and none with --no-docs', async () => {
    const { base, cli } = await serving(['--seed', fixture]);
    expect(cli.out()).toContain(`reference: ${base}/docs`);
    const page = await fetch(`${base}/docs`);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const description = (await (await fetch(`${base}/openapi.json`)).json()) as { openapi: string };
    expect(description.openapi).toBe('3.1.0');
    await cli.stop();
    const bare = await serving(['--no-docs']);
    expect(bare.cli.out()).not.toContain('reference:');
    expect((await fetch(`${bare.base}/openapi.json`)).status).toBe(404);
    expect(await (await fetch(`${bare.base}/docs`)).json()).toEqual([]);
    await bare.cli.stop();
  });

  it('serves a collection named docs instead of the reference page, and says so', async () => {
    const seed = join(freshDir(), 'docs.json');
    writeFileSync(seed, JSON.stringify({ docs: [{ id: 1, title: 'guide' }] }));
    const { base, cli } = await serving(['--seed', seed]);
    expect(cli.out()).toContain('no /docs page: a collection is named "docs"');
    expect(await (await fetch(`${base}/docs/1`)).json()).toEqual({ id: 1, title: 'guide' });
    await cli.stop();
  });

  it('fails with exit code 1 and says so when the port is in use', async () => {
    const { base, cli } = await serving([]);
    const port = new URL(base).port;
    const second = run(['serve', '--port', port]);
    expect(await second.exit).toBe(1);
    expect(second.err()).toMatch(
      `port ${port} on 127.0.0.1 is already in use: stop what uses it, or choose another with --port`,
    );
    await cli.stop();
  });

  it('fails when the data directory is locked by another store', async () => {
    const data = freshDir();
    const { cli } = await serving(['--data', data]);
    const second = run(['serve', '--port', String(await freePort()), '--data', data]);
    expect(await second.exit).toBe(1);
    expect(second.err()).toMatch(`the data directory ${data} is in use by this process`);
    await cli.stop();
  });

  it.each([
    ['a missing file', () => join(freshDir(), 'nope.json'), /cannot read .*nope\.json: no such file/],
    [
      'invalid JSON',
      () => {
        const path = join(freshDir(), 'bad.json');
        writeFileSync(path, '{ "posts": [ { "id": 1, } ] }');
        return path;
      },
      /bad\.json is not valid JSON: .*position/,
    ],
    [
      'a collection of non-objects',
      () => {
        const path = join(freshDir(), 'odd.json');
        writeFileSync(path, '{ "posts": [ 1 ] }');
        return path;
      },
      /odd\.json: posts\[0\] is not an object/,
    ],
  ])('fails with exit code 1 on %s as --seed, naming the file', async (_, file, message) => {
    const cli = run(['serve', '--port', '0', '--seed', file()]);
    expect(await cli.exit).toBe(1);
    expect(cli.err()).toMatch(message);
  });

  it('fails within seconds, naming the server without its password, when MongoDB is unreachable', async () => {
    const cli = run(['serve', '--port', '0', '--db', 'mongodb://ada:secret@127.0.0.1:1/shop']);
    expect(await cli.exit).toBe(1);
    expect(cli.err()).toMatch(/cannot reach MongoDB at mongodb:\/\/ada:\*\*\*@127\.0\.0\.1:1\/shop/);
    expect(cli.err()).not.toContain('secret');
  });
});

describe('store serve by default: pages on this machine only, and loopback Host names only', () => {
  let served: Awaited<ReturnType<typeof serving>>;
  let port: string;
  const seeded = [
    { id: 1, title: 'json-server', author: 'typicode' },
    { id: 2, title: 'another post', author: 'typicode' },
  ];

  beforeAll(async () => {
    served = await serving(['--seed', fixture]);
    port = new URL(served.base).port;
  });
  afterAll(async () => {
    await served?.cli.stop();
  });

  it('says at start which pages may call it and which Host names it answers', () => {
    expect(served.cli.out()).toContain(
      'browsers: only pages on localhost, 127.0.0.1, [::1] (any port) may call it; --cors sets others',
    );
    expect(served.cli.out()).toContain(
      'hosts: answers requests for localhost, 127.0.0.1, [::1] only (others: 403 host_not_allowed; --allowed-hosts adds names)',
    );
  });

  it.each([
    'http://localhost:5173',
    'http://localhost',
    'https://localhost:8443',
    'http://127.0.0.1:8080',
    'http://[::1]:3000',
  ])('answers a preflight from the loopback origin %s, echoing it', async (origin) => {
    const answer = await fetch(`${served.base}/posts`, preflight(origin));
    expect(answer.status).toBe(204);
    expect(answer.headers.get('access-control-allow-origin')).toBe(origin);
    expect(answer.headers.get('vary')).toContain('Origin');
    const read = await fetch(`${served.base}/posts`, { headers: { origin } });
    expect(read.headers.get('access-control-allow-origin')).toBe(origin);
  });

  it.each([
    'http://evil.test',
    'https://app.example.com',
    'http://localhost.evil.test:3000',
    'http://127.0.0.2:8080',
    'null',
  ])('refuses a preflight from the origin %s, and gives its reads no CORS header', async (origin) => {
    const answer = await fetch(`${served.base}/posts`, preflight(origin));
    expect(answer.status).toBe(403);
    expect(((await answer.json()) as { code: string }).code).toBe('origin_not_allowed');
    const read = await fetch(`${served.base}/posts`, { headers: { origin } });
    expect(read.status).toBe(200);
    expect(read.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('a request for a foreign Host name is refused (DNS rebinding): 403 host_not_allowed, saying how to allow it, data unchanged', async () => {
    for (const [method, path, body] of [
      ['GET', '/posts', undefined],
      ['POST', '/posts', { title: 'planted' }],
      ['DELETE', '/posts/1', undefined],
    ] as const) {
      const answer = await withHost(served.base, `evil.test:${port}`, method, path, body);
      expect(answer.status).toBe(403);
      expect(answer.type).toBe('application/problem+json');
      expect(answer.body).toMatchObject({
        status: 403,
        title: 'Forbidden',
        code: 'host_not_allowed',
        detail: expect.stringContaining('start the store with --allowed-hosts evil.test'),
      });
    }
    expect(await (await fetch(`${served.base}/posts`)).json()).toEqual(seeded);
  });

  it.each(['localhost', 'localhost:PORT', '127.0.0.1:PORT', '[::1]:PORT', 'LOCALHOST:PORT'])(
    'answers a request for the loopback Host %s',
    async (host) => {
      const answer = await withHost(served.base, host.replace('PORT', port));
      expect(answer).toMatchObject({ status: 200, body: seeded });
    },
  );

  it.each(['localhost.evil.test', '127.0.0.1.evil.test', 'evil.test@localhost', 'local host'])(
    'refuses a request for the Host %j',
    async (host) => {
      const answer = await withHost(served.base, host);
      expect(answer.status).toBe(403);
      expect(answer.body).toMatchObject({ code: 'host_not_allowed' });
    },
  );
});

describe('store serve --allowed-hosts and --host', () => {
  it('answers the names of --allowed-hosts (.name: it and its subdomains), and still refuses others', async () => {
    const { base, cli } = await serving(['--allowed-hosts', 'evil.test,.dev.test']);
    expect(cli.out()).toContain(
      'hosts: answers requests for localhost, 127.0.0.1, [::1], evil.test, .dev.test only',
    );
    for (const host of ['evil.test', 'EVIL.test:8080', 'dev.test', 'api.dev.test:3000']) {
      expect((await withHost(base, host)).status).toBe(200);
    }
    for (const host of ['other.test', 'sub.evil.test', 'notdev.test']) {
      expect(await withHost(base, host)).toMatchObject({ status: 403, body: { code: 'host_not_allowed' } });
    }
    await cli.stop();
  });

  it('checks Host on any loopback address (--host 127.0.0.2), answering the name it was started on', async () => {
    const { base, cli } = await serving(['--host', '127.0.0.2']);
    const bound = base.replace('127.0.0.1', '127.0.0.2');
    expect(cli.out()).toContain('hosts: answers requests for localhost, 127.0.0.1, [::1], 127.0.0.2 only');
    expect((await withHost(bound, new URL(bound).host)).status).toBe(200);
    expect(await withHost(bound, 'evil.test')).toMatchObject({
      status: 403,
      body: { code: 'host_not_allowed' },
    });
    await cli.stop();
  });

  it('answers every Host on a non-loopback address (--host 0.0.0.0), and says so with the risk', async () => {
    const { base, cli } = await serving(['--host', '0.0.0.0', '--allowed-hosts', 'a.test']);
    expect(cli.out()).toContain(
      'warning: 0.0.0.0 is not a loopback address: other machines can reach the store, and requests for any Host name are answered (no DNS-rebinding check)',
    );
    expect(cli.out()).toContain(
      '--allowed-hosts is not used: the Host check applies on a loopback address only',
    );
    expect((await withHost(base, 'evil.test')).status).toBe(200);
    await cli.stop();
  });
});

describe('store import and export', () => {
  it('round-trips collections with ObjectIds and dates through a data directory', async () => {
    const data = freshDir();
    const id = new ObjectId();
    const file = join(freshDir(), 'in.json');
    writeFileSync(
      file,
      EJSON.stringify({
        users: [{ _id: id, at: new Date('2030-01-01T00:00:00Z'), name: 'Ada' }],
        tags: [{ id: 't' }],
      }),
    );
    const imported = run(['import', file, '--data', data]);
    expect(await imported.exit).toBe(0);
    expect(imported.out()).toMatch(/imported into embedded \(data in .*\): users \(1\), tags \(1\)/);

    const exported = run(['export', '--data', data]);
    expect(await exported.exit).toBe(0);
    expect(EJSON.parse(exported.written(), { relaxed: true })).toEqual({
      tags: [{ _id: 't' }],
      users: [{ _id: id, at: new Date('2030-01-01T00:00:00Z'), name: 'Ada' }],
    });

    const out = join(freshDir(), 'out.json');
    expect(await run(['export', out], { STORE_DATA: data }).exit).toBe(0);
    expect(EJSON.parse(readFileSync(out, 'utf8'))).toEqual(EJSON.parse(exported.written()));
  });

  it('refuses to import into collections holding documents unless --replace', async () => {
    const data = freshDir();
    expect(await run(['import', fixture, '--data', data]).exit).toBe(0);
    const again = run(['import', fixture, '--data', data]);
    expect(await again.exit).toBe(1);
    expect(again.err()).toMatch(/already holding documents: posts \(2\), comments \(3\); add --replace/);
    expect(await run(['import', fixture, '--data', data, '--replace']).exit).toBe(0);
    const exported = run(['export', '--data', data]);
    await exported.exit;
    expect(Object.keys(JSON.parse(exported.written()))).toEqual(['comments', 'posts']);
  });

  it('names the duplicate id of a file that holds one twice', async () => {
    const file = join(freshDir(), 'dup.json');
    writeFileSync(file, JSON.stringify({ posts: [{ id: 1 }, { id: 1 }] }));
    const cli = run(['import', file, '--data', freshDir()]);
    expect(await cli.exit).toBe(1);
    expect(cli.err()).toMatch(/posts\[1\]: the _id 1 is in the file twice/);
  });
});

describe('the built store binary', () => {
  it('prints its version and exits 0', () => {
    const result = spawnSync(process.execPath, [bin, '--version'], { encoding: 'utf8' });
    expect(result.status).toBe(0);
    expect(result.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('exits 2 on an unknown command, with usage on stderr', () => {
    const result = spawnSync(process.execPath, [bin, 'srve'], { encoding: 'utf8' });
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/unknown command "srve"[\s\S]*Usage: store <command>/);
  });
});
