/**
 * `store import` into a data directory killed with SIGKILL part-way: the next open holds either
 * nothing of the import or all of it, never a part, and no temporary collection. Runs the built
 * binary (`pnpm build` first, as `pnpm test` does).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createEmbeddedDb } from '@store/embedded';
import { afterAll, describe, expect, it } from 'vitest';

const bin = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const DOCS = 150_000;
/** Kill once the data directory holds this many bytes: early, midway, late in the writing. */
const KILL_AT_BYTES = [256 * 1024, 6 * 1024 * 1024, 16 * 1024 * 1024];

const made: string[] = [];
const freshDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'store-import-crash-'));
  made.push(dir);
  return dir;
};

afterAll(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const bytesIn = (dir: string): number => {
  try {
    return readdirSync(dir).reduce((sum, name) => sum + statSync(join(dir, name)).size, 0);
  } catch {
    return 0; // a file removed between the listing and its stat (a compaction)
  }
};

/** Starts the import and kills it once `dir` holds `bytes`; answers whether it had finished first. */
async function importKilledAt(file: string, dir: string, bytes: number): Promise<boolean> {
  const child: ChildProcess = spawn(process.execPath, [bin, 'import', file, '--data', dir], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let err = '';
  child.stderr?.on('data', (chunk) => {
    err += chunk;
  });
  const exited = once(child, 'exit') as Promise<[number | null, string | null]>;
  let finished = false;
  exited.then(() => {
    finished = true;
  });
  while (!finished && bytesIn(dir) < bytes) await new Promise((resolve) => setTimeout(resolve, 5));
  if (!finished) child.kill('SIGKILL');
  const [code, signal] = await exited;
  if (signal !== 'SIGKILL') expect({ code, err }).toEqual({ code: 0, err: '' });
  return signal !== 'SIGKILL';
}

describe('store import killed part-way into a data directory', () => {
  it('leaves either nothing imported or everything, at any moment', { timeout: 60_000 }, async () => {
    const file = join(freshDir(), 'big.json');
    const posts = Array.from({ length: DOCS }, (_, i) => ({ id: i, title: `post ${i}`, views: i % 1000 }));
    writeFileSync(file, JSON.stringify({ comments: [{ id: 'c' }], posts }));
    const outcomes: string[] = [];
    for (const bytes of KILL_AT_BYTES) {
      const dir = freshDir();
      const finished = await importKilledAt(file, dir, bytes);
      const db = createEmbeddedDb({ dir, warn: () => undefined });
      try {
        const names = (await db.listCollections().toArray()).map((each) => each.name);
        const counts = await Promise.all(names.map((name) => db.collection(name).countDocuments({})));
        const state = Object.fromEntries(names.map((name, i) => [name, counts[i]]));
        expect([{}, { comments: 1, posts: DOCS }]).toContainEqual(state);
        if (finished) expect(state).toEqual({ comments: 1, posts: DOCS });
        outcomes.push(Object.keys(state).length === 0 ? 'nothing' : 'everything');
      } finally {
        await db.close();
      }
    }
    // The early kill lands before the last step: the import was under way, not finished.
    expect(outcomes[0]).toBe('nothing');
  });
});
