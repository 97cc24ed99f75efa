/**
 * The journal switch, cut at every point: a workload that crosses the compaction threshold
 * again and again is run once through a recording file system, then the directory is rebuilt
 * as a crash would leave it at every call of the run and at every byte of the writes around
 * each switch (every byte of records up to 4 KiB, sampled beyond), both as a `kill -9` leaves
 * it (everything written) and as a power cut does (only what was synced, names and contents
 * each either way). Every such directory opens, with every write acknowledged before the cut.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEmbeddedDb } from '@store/embedded';
import { describe, expect, it } from 'vitest';
import {
  type Call,
  DirectoryModel,
  recordingFileSystem,
  writeDirectory,
} from './support/recorded-file-system';

const JOURNAL = /^journal-(\d+)\.log$/;
const scratch = () => mkdtempSync(join(existsShm() ? '/dev/shm' : tmpdir(), 'store-switch-'));

function existsShm(): boolean {
  try {
    readdirSync('/dev/shm');
    return true;
  } catch {
    return false;
  }
}

/**
 * Runs the workload: `rounds` inserts of documents whose record is about `size` bytes, then
 * five at once (one group commit), with the threshold low enough to switch journals every few
 * records; answers the calls made, with each acknowledgement where the test saw it.
 */
async function recordRun(size: number, rounds: number): Promise<{ calls: Call[]; tried: Set<string> }> {
  const dir = scratch();
  writeFileSync(join(dir, 'journal-0.log'), '');
  const calls: Call[] = [];
  const db = createEmbeddedDb({
    dir,
    compactAfterBytes: 2 * size,
    warn: () => undefined,
    fileSystem: recordingFileSystem(dir, calls),
  });
  const docs = db.collection('docs');
  const tried = new Set<string>();
  const insert = async (id: string) => {
    tried.add(id);
    await docs.insertOne({ _id: id, pad: 'x'.repeat(Math.max(0, size - 64)) });
    calls.push({ op: 'ack', id });
  };
  for (let n = 0; n < rounds; n++) {
    await insert(`a${n}`);
    // Keeps the snapshot small, so that the threshold stays low and switches keep coming.
    if (n % 3 === 2) {
      await docs.deleteOne({ _id: `a${n - 2}` });
      tried.delete(`a${n - 2}`);
    }
  }
  await Promise.all([0, 1, 2, 3, 4].map((n) => insert(`b${n}`)));
  await db.close();
  rmSync(dir, { recursive: true, force: true });
  return { calls, tried };
}

/** The name of the journal an open call created, with its generation. */
const journalOf = (call: Call): number | undefined => {
  if (call.op !== 'open' || call.directory) return undefined;
  const match = JOURNAL.exec(call.name);
  return match ? Number(match[1]) : undefined;
};

/** Indexes of the writes just before and just after each switch (the new journal's open). */
function writesAroundSwitches(calls: Call[]): number[] {
  const around = new Set<number>();
  for (const [i, call] of calls.entries()) {
    const generation = journalOf(call);
    if (generation === undefined || generation === 0) continue;
    const before = calls.findLastIndex((each, at) => at < i && each.op === 'write');
    const after = calls.findIndex((each, at) => at > i && each.op === 'write');
    if (before >= 0) around.add(before);
    if (after >= 0) around.add(after);
  }
  return [...around].sort((a, b) => a - b);
}

/** Byte counts to cut a write of `length` bytes at: every one up to 4 KiB, else a sample. */
function cutsOf(length: number): number[] {
  if (length <= 4_096) return Array.from({ length }, (_, k) => k);
  const cuts = new Set([0, 1, 7, 8, 9, length - 1]);
  for (let k = 0; k < 300; k++) cuts.add(Math.floor(((k + 0.5) / 300) * length));
  return [...cuts].sort((a, b) => a - b);
}

/**
 * Opens `files` as a directory and checks it: it opens, every acknowledged write is there, and
 * nothing is there that was never written. A state already checked with as many
 * acknowledgements is skipped.
 */
class Checker {
  readonly #dir = join(scratch(), 'data');
  readonly #seen = new Set<string>();
  checked = 0;

  constructor(readonly tried: Set<string>) {}

  async check(where: string, files: Map<string, Buffer>, acked: Set<string>): Promise<void> {
    const hash = createHash('sha1');
    for (const [name, content] of [...files].sort(([a], [b]) => (a < b ? -1 : 1))) {
      hash.update(`${name}:${content.length}:`).update(content);
    }
    const key = `${hash.digest('hex')}:${acked.size}`;
    if (this.#seen.has(key)) return;
    this.#seen.add(key);
    this.checked += 1;
    writeDirectory(this.#dir, files);
    let db: ReturnType<typeof createEmbeddedDb>;
    try {
      db = createEmbeddedDb({ dir: this.#dir, warn: () => undefined });
    } catch (error) {
      throw new Error(`${where}: the directory does not open: ${(error as Error).message}`);
    }
    const ids = new Set((await db.collection('docs').find({}).toArray()).map((doc) => String(doc._id)));
    await db.close();
    for (const id of acked) {
      if (this.tried.has(id)) expect(ids.has(id), `${where}: ${id}, acknowledged`).toBe(true);
    }
    for (const id of ids) expect(/^[ab]\d+$/.test(id), `${where}: ${id} was never written`).toBe(true);
  }

  remove(): void {
    rmSync(join(this.#dir, '..'), { recursive: true, force: true });
  }
}

describe('the journal switch', () => {
  it('never writes to a journal once a newer one exists', async () => {
    const { calls } = await recordRun(600, 40);
    const fdJournal = new Map<number, number>();
    let newest = 0;
    let switches = 0;
    for (const call of calls) {
      const generation = journalOf(call);
      if (call.op === 'open' && generation !== undefined) {
        fdJournal.set(call.fd, generation);
        if (generation > newest) switches += 1;
        newest = Math.max(newest, generation);
      }
      if (call.op === 'write' && fdJournal.has(call.fd)) {
        expect(fdJournal.get(call.fd), 'a write to an older journal').toBe(newest);
      }
    }
    expect(switches).toBeGreaterThanOrEqual(3);
  });

  for (const size of [120, 1_000, 4_096, 40_000]) {
    it(`opens with every acknowledged write when cut at any call, and at any byte of the switch record (records of ${size} bytes)`, {
      timeout: 60_000,
    }, async () => {
      const { calls, tried } = await recordRun(size, 12);
      const around = writesAroundSwitches(calls);
      // The record that crossed the threshold: the last write before the first switch.
      const switchRecord = around[0];
      const recordBytes = (calls[switchRecord as number] as { bytes: Buffer }).bytes.length;
      expect(recordBytes).toBeLessThanOrEqual(size);
      const checker = new Checker(tried);
      const model = new DirectoryModel({ 'journal-0.log': Buffer.alloc(0) });
      let cuts = 0;
      try {
        for (const [i, call] of calls.entries()) {
          // Killed before call i, or the power cut there: names and contents each as written or as synced.
          for (const names of ['written', 'synced'] as const) {
            for (const contents of ['written', 'synced'] as const) {
              const where = `before call ${i} (${call.op}), ${names} names, ${contents} contents`;
              await checker.check(where, model.files(names, contents), model.acked);
            }
          }
          // Inside a write around a switch: every byte of the switch record, a sample of the others.
          if (call.op === 'write' && around.includes(i)) {
            const every = i === switchRecord ? 1 : 53;
            for (const bytes of cutsOf(call.bytes.length).filter((_, k) => k % every === 0)) {
              const cut = model.clone();
              cut.apply(call, bytes);
              cuts += 1;
              const where = `${bytes} bytes into call ${i} (a write of ${call.bytes.length})`;
              await checker.check(`${where}, killed`, cut.files('written', 'written'), model.acked);
              if (bytes % 16 === 0) {
                await checker.check(`${where}, power cut`, cut.files('synced', 'written'), model.acked);
              }
            }
          }
          model.apply(call);
        }
      } finally {
        checker.remove();
      }
      // Every byte of the switch record (its size is up to `size`: the records batched into one write vary with timing).
      expect(cuts).toBeGreaterThanOrEqual(Math.min(recordBytes, 300));
      console.log(
        `switch cuts (a ${recordBytes}-byte switch record): ${calls.length} calls, ${cuts} byte cuts, ${checker.checked} directories opened`,
      );
    });
  }
});
