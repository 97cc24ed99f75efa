/**
 * The `store` command (`serve`, `import`, `export`), run in-process through `runCli` with its output
 * captured, and as the built binary where the process itself matters (exit codes, signals).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EJSON, ObjectId } from 'bson';
import { describe, expect, it } from 'vitest';
import { type CliIo, runCli } from '../src/index';

const fixture = fileURLToPath(new URL('./fixtures/db.json', import.meta.url));
const bin = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const freshDir = () => mkdtempSync(join(tmpdir(), 'store-cli-'));

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  return typeof address === 'object' && address ? address.port : 0;
}

/** Runs the command with captured output; `stop()` ends a `serve`. */
function run(args: string[], env: NodeJS.ProcessEnv = {}) {
  let stop: (signal: string) => void = () => undefined;
  const out: string[] = [];
  const err: string[] = [];
  let written = '';
  let exit!: Promise<number>;
  const listening = new Promise<void>((resolve) => {
    const io: CliIo = {
      out: (line) => {
        out.push(line);
        if (line.startsWith('store serving')) resolve();
      },
      err: (line) => err.push(line),
      write: (text) => {
        written += text;
      },
      stopped: new Promise((resolveStop) => {
        stop = resolveStop;
      }),
    };
    exit = runCli(args, io, env, '9.9.9');
  });
  return {
    exit,
    listening,
    stop: async () => {
      stop('SIGTERM');
      return exit;
    },
    out: () => out.join('\n'),
    err: () => err.join('\n'),
    written: () => written,
  };
}

/** Starts `store serve` with `args` on a free port; answers its base URL and its handle. */
async function serving(args: string[]) {
  const port = await freePort();
  const cli = run(['serve', '--port', String(port), ...args]);
  await Promise.race([
    cli.listening,
    cli.exit.then((code) => Promise.reject(new Error(`exited ${code}: ${cli.err()}`))),
  ]);
  return { base: `http://127.0.0.1:${port}`, cli };
}

describe('store --help and usage errors', () => {
  it.each([
    [[], /Usage: store <command>/],
    [['--help'], /serve +serve every resource/],
    [['serve', '--help'], /--seed <file>.*\n[\s\S]*--cors <origins>/],
    [['import', '-h'], /json-server's db.json imports as is/],
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
  ])('refuses %j with exit code 2 and a clear message', async (args, message) => {
    const cli = run(args);
    expect(await cli.exit).toBe(2);
    expect(cli.err()).toMatch(message);
  });
});

describe('store serve', () => {
  it("answers json-server's fixture as json-server does, with _id for id", async () => {
    const { base, cli } = await serving(['--seed', fixture]);
    expect(cli.out()).toContain('seeded from');
    expect(cli.out()).toContain('left out of the seed (not arrays): profile');
    expect(await (await fetch(`${base}/posts/1`)).json()).toEqual({
      _id: 1,
      title: 'json-server',
      author: 'typicode',
    });
    expect(await (await fetch(`${base}/comments?postId=1`)).json()).toEqual([
      { _id: 1, body: 'some comment', postId: 1 },
      { _id: 2, body: 'another comment', postId: 1 },
    ]);
    expect((await fetch(`${base}/nowhere/1/2/3`)).status).toBe(404);
    expect(await cli.stop()).toBe(0);
  });

  it('keeps a POSTed document across a restart with --data, and does not seed it again', async () => {
    const data = join(freshDir(), 'd');
    const first = await serving(['--data', data, '--seed', fixture]);
    expect(first.cli.out()).toContain(`engine: embedded (data in ${data})`);
    const created = await fetch(`${first.base}/notes`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'kept' }),
    });
    expect(created.status).toBe(201);
    const { _id } = (await created.json()) as { _id: string };
    expect(await first.cli.stop()).toBe(0);

    const second = await serving(['--data', data, '--seed', fixture]);
    expect(second.cli.out()).toContain('--seed skipped: posts, comments already hold documents');
    expect(await (await fetch(`${second.base}/notes/${_id}`)).json()).toEqual({ _id, text: 'kept' });
    expect(await second.cli.stop()).toBe(0);
  });

  it('answers CORS preflights from any origin by default, and none with --cors off', async () => {
    const preflight = {
      method: 'OPTIONS',
      headers: { origin: 'http://app.test', 'access-control-request-method': 'GET' },
    };
    const open = await serving([]);
    const allowed = await fetch(`${open.base}/posts`, preflight);
    expect(allowed.status).toBe(204);
    expect(allowed.headers.get('access-control-allow-origin')).toBe('*');
    await open.cli.stop();
    const closed = await serving(['--cors', 'off']);
    expect((await fetch(`${closed.base}/posts`, preflight)).status).toBe(405);
    await closed.cli.stop();
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
    expect(await (await fetch(`${base}/docs/1`)).json()).toEqual({ _id: 1, title: 'guide' });
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
