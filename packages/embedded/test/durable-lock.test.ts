/**
 * The data directory's lock: of several processes opening one directory at the same instant
 * exactly one opens it, fresh or over a stale lock, and no raw system error escapes; a stale
 * lock is told by more than a bare pid (our own pid, another boot, a heartbeat that stopped);
 * a live holder is refused in one sentence; the heartbeat keeps no process alive, stops on
 * close, and a database whose lock was taken stops writing.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createEmbeddedDb, EmbeddedDataError, type EmbeddedDb } from '@store/embedded';
import { afterEach, describe, expect, it } from 'vitest';
import { LOCK_TIMING } from '../src/durable/lock';

const child = fileURLToPath(new URL('./support/lock-child.mjs', import.meta.url));
const packageDir = fileURLToPath(new URL('..', import.meta.url));
const freshDir = () => mkdtempSync(join(tmpdir(), 'store-lock-'));
const quiet = () => undefined;
const opened: EmbeddedDb[] = [];
const timing = { ...LOCK_TIMING };

afterEach(async () => {
  Object.assign(LOCK_TIMING, timing);
  await Promise.all(opened.splice(0).map((db) => db.close()));
});

function open(dir: string) {
  const db = createEmbeddedDb({ dir, warn: quiet });
  opened.push(db);
  return db;
}

function failure(dir: string): EmbeddedDataError {
  try {
    open(dir);
  } catch (error) {
    return error as EmbeddedDataError;
  }
  throw new Error(`${dir} opened`);
}

interface Started {
  process: ChildProcess;
  /** Resolves once the child is loaded and waits for its start. */
  ready: Promise<void>;
  /** Lets it open the directory at `startAt` (ms since the epoch). */
  go(startAt: number): void;
  /** Its one line about the open. */
  line: Promise<string>;
}

/** Starts a child that opens `dir` when told to (see support/lock-child.mjs). */
function start(dir: string, mode: 'hold' | 'leave' = 'hold'): Started {
  const started = spawn(process.execPath, [child, dir, mode], {
    cwd: packageDir,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  started.stderr?.on('data', (chunk) => {
    err += chunk;
  });
  started.stdout?.on('data', (chunk) => {
    out += chunk;
  });
  /** The whole line `n` of the child's output, once it is there. */
  const lineNumber = (n: number) =>
    new Promise<string>((resolve, reject) => {
      const check = () => {
        const lines = out.split('\n');
        if (lines.length > n + 1) resolve(lines[n] as string);
      };
      started.stdout?.on('data', check);
      started.once('exit', () => reject(new Error(`the child exited: ${out} ${err}`)));
    });
  const ready = lineNumber(0).then(() => undefined);
  const line = lineNumber(1);
  // Awaited by the test when it gets that far; a child that fails earlier is reported once.
  line.catch(() => undefined);
  return { process: started, ready, go: (startAt) => started.stdin?.write(`go ${startAt}\n`), line };
}

/** Starts a child and lets it open `dir` at once. */
async function startNow(dir: string, mode: 'hold' | 'leave' = 'hold'): Promise<Started> {
  const started = start(dir, mode);
  await started.ready;
  started.go(0);
  return started;
}

async function stop(children: Started[]): Promise<void> {
  await Promise.all(
    children.map(async ({ process: each }) => {
      if (each.exitCode !== null || each.signalCode !== null) return;
      const exited = once(each, 'exit');
      each.stdin?.end();
      await exited;
    }),
  );
}

/** Several children open `dir` at one instant: answers their lines. */
async function race(dir: string, count: number): Promise<string[]> {
  const children = Array.from({ length: count }, () => start(dir));
  try {
    await Promise.all(children.map((each) => each.ready));
    const startAt = Date.now() + 100;
    for (const each of children) each.go(startAt);
    return await Promise.all(children.map((each) => each.line));
  } finally {
    await stop(children);
  }
}

/** The lock this process writes, as an object (opened and closed to read it). */
function ourLock(): Record<string, unknown> {
  const dir = freshDir();
  open(dir);
  const lock = JSON.parse(readFileSync(join(dir, 'LOCK'), 'utf8')) as Record<string, unknown>;
  return lock;
}

describe('the data directory lock', () => {
  it('lets exactly one of several processes opening a fresh directory at one instant open it', async () => {
    for (let round = 0; round < 3; round++) {
      const lines = await race(join(freshDir(), 'data'), 4);
      expect(lines.filter((line) => line === 'opened')).toHaveLength(1);
      for (const line of lines.filter((each) => each !== 'opened')) {
        expect(line).toMatch(/^refused the data directory .* is in use by process \d+ on .*; stop it first/);
      }
    }
  }, 60_000);

  it('lets exactly one of several processes take over a stale lock, with no raw ENOENT', async () => {
    for (let round = 0; round < 3; round++) {
      const dir = freshDir();
      writeFileSync(join(dir, 'LOCK'), '2147483646\n'); // a pid that runs nowhere
      const lines = await race(dir, 4);
      expect(lines.filter((line) => line === 'opened')).toHaveLength(1);
      expect(lines.filter((line) => line.startsWith('error'))).toEqual([]);
      expect(lines.join('\n')).not.toMatch(/ENOENT/);
    }
  }, 60_000);

  it('refuses a directory a live process holds, in one sentence naming it, and opens once it is killed', async () => {
    const dir = freshDir();
    const holder = await startNow(dir);
    expect(await holder.line).toBe('opened');
    const refused = failure(dir);
    expect(refused).toBeInstanceOf(EmbeddedDataError);
    expect(refused.reason).toBe('locked');
    expect(refused.message).toMatch(
      new RegExp(
        `^the data directory ${dir} is in use by process ${holder.process.pid} on [^;]+; stop it first, or use another directory$`,
      ),
    );
    const exited = once(holder.process, 'exit');
    holder.process.kill('SIGKILL');
    await exited;
    expect(() => open(dir)).not.toThrow();
  }, 30_000);

  it('takes over a lock naming our own pid from an earlier run (a container restarted as pid 1)', () => {
    const lock = ourLock();
    const dir = freshDir();
    writeFileSync(join(dir, 'LOCK'), JSON.stringify({ ...lock, token: 'an-earlier-run' }));
    expect(() => open(dir)).not.toThrow();
  });

  it('takes over a lock taken on this host before the machine restarted, even if its pid runs now', () => {
    const lock = ourLock();
    const dir = freshDir();
    const earlier = { ...lock, pid: process.ppid, boot: 'another-boot', token: 'before-reboot' };
    writeFileSync(join(dir, 'LOCK'), JSON.stringify(earlier));
    expect(() => open(dir)).not.toThrow();
  });

  it('takes over a lock of another host (or container) whose heartbeat stopped', () => {
    const lock = ourLock();
    const dir = freshDir();
    const path = join(dir, 'LOCK');
    writeFileSync(path, JSON.stringify({ ...lock, pid: process.ppid, host: 'elsewhere', token: 'silent' }));
    const past = new Date(Date.now() - 60_000);
    utimesSync(path, past, past);
    expect(() => open(dir)).not.toThrow();
  });

  it('refuses a lock of another host while its heartbeat goes on, and takes it over once it stops', async () => {
    Object.assign(LOCK_TIMING, { staleMs: 1_500, pollMs: 50 });
    const lock = ourLock();
    const dir = freshDir();
    const path = join(dir, 'LOCK');
    writeFileSync(path, JSON.stringify({ ...lock, pid: 1, host: 'elsewhere', token: 'beating' }));
    const beating = spawn(process.execPath, [
      '-e',
      `const fs = require('node:fs'); setInterval(() => fs.utimesSync(${JSON.stringify(path)}, new Date(), new Date()), 100);`,
    ]);
    try {
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(failure(dir).message).toBe(
        `the data directory ${dir} is in use by process 1 on elsewhere; stop it first, or use another directory`,
      );
    } finally {
      const exited = once(beating, 'exit');
      beating.kill('SIGKILL');
      await exited;
    }
    expect(() => open(dir)).not.toThrow(); // waits out the 1.5 s without a beat
  });

  it('takes over a stale lock whose earlier taker died during the take-over, and sweeps old litter', () => {
    const lock = ourLock();
    const dir = freshDir();
    const gone = { ...lock, pid: 2147483646, token: 'dead-holder' };
    writeFileSync(join(dir, 'LOCK'), JSON.stringify(gone));
    writeFileSync(
      join(dir, 'LOCK.takeover-dead-holder'),
      JSON.stringify({ ...gone, pid: 2147483645, token: 'dead-taker' }),
    );
    writeFileSync(join(dir, 'LOCK.old-draft.new'), '{}');
    writeFileSync(join(dir, 'LOCK.fresh-draft.new'), '{}');
    const past = new Date(Date.now() - 60_000);
    utimesSync(join(dir, 'LOCK.old-draft.new'), past, past);
    expect(() => open(dir)).not.toThrow();
    expect(
      readdirSync(dir)
        .filter((name) => name.startsWith('LOCK'))
        .sort(),
    ).toEqual(['LOCK', 'LOCK.fresh-draft.new']);
  });

  it('keeps touching its lock while open, removes it on close, and keeps no process alive', async () => {
    Object.assign(LOCK_TIMING, { heartbeatMs: 50 });
    const dir = freshDir();
    const db = open(dir);
    const path = join(dir, 'LOCK');
    const past = new Date(Date.now() - 60_000);
    utimesSync(path, past, past);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(statSync(path).mtimeMs).toBeGreaterThan(Date.now() - 10_000);
    await db.close();
    expect(() => statSync(path)).toThrow(/ENOENT/);

    // A process that opens a directory and never closes it still exits by itself.
    const leaver = await startNow(freshDir(), 'leave');
    expect(await leaver.line).toBe('opened');
    const [code] = await once(leaver.process, 'exit');
    expect(code).toBe(0);
  }, 30_000);

  it('stops writing once its lock was taken by another process', async () => {
    Object.assign(LOCK_TIMING, { heartbeatMs: 50 });
    const dir = freshDir();
    const warnings: string[] = [];
    const db = createEmbeddedDb({ dir, warn: (message) => warnings.push(message) });
    opened.push(db);
    await db.collection('docs').insertOne({ _id: 1 });
    writeFileSync(join(dir, 'LOCK'), JSON.stringify({ pid: process.ppid, token: 'another' }));
    await new Promise((resolve) => setTimeout(resolve, 200));
    await expect(db.collection('docs').insertOne({ _id: 2 })).rejects.toThrow(/lock .* was removed or taken/);
    expect(warnings).toEqual([
      expect.stringMatching(/stopped writing, so that two processes never write one directory/),
    ]);
  });
});
