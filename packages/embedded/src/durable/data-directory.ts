/**
 * A data directory of the embedded engine:
 *
 *     LOCK               the pid of the process that has it open (see lock.ts)
 *     snapshot.bson      every collection at the start of journal generation g (header says g)
 *     journal-<g>.log    the changes since, one record per operation (per slice of a long
 *                        updateMany / deleteMany), synced before it is acknowledged
 *
 * Opening reads the snapshot, replays journals g, g+1, ... in order and rebuilds the indexes.
 * Compaction starts journal g+1, writes the state of that instant as `snapshot.tmp` in the
 * background, syncs it, renames it over `snapshot.bson` and deletes the older journals: a
 * crash at any point leaves a snapshot and the journals that complete it.
 */
import {
  closeSync,
  existsSync,
  fdatasyncSync,
  ftruncateSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Document } from '@store/common';
import type { IndexDefinition } from '../collection';
import { idKey } from '../values';
import { EmbeddedDataError } from './data-error';
import { Journal, syncDirectory, touchFile } from './journal';
import { lockDirectory } from './lock';
import { type Change, decodeRecords, encodeRecord } from './records';

const SNAPSHOT = 'snapshot.bson';
const SNAPSHOT_TMP = 'snapshot.tmp';
const FORMAT = 'store-embedded';
const FORMAT_VERSION = 1;
const JOURNAL = /^journal-(\d+)\.log$/;
/** Changes per snapshot record. */
const SNAPSHOT_BATCH = 1_000;

const journalName = (generation: number): string => `journal-${generation}.log`;

/** One collection as read from disk. */
interface CollectionImage {
  docs: Map<string, Document>;
  indexes: Map<string, IndexDefinition>;
}

/** What a snapshot is written from: each collection's documents and index definitions. */
export type StateImage = Iterable<[name: string, image: { docs: Document[]; indexes: IndexDefinition[] }]>;

function imageOf(collections: Map<string, CollectionImage>, name: string): CollectionImage {
  let image = collections.get(name);
  if (!image) {
    image = { docs: new Map(), indexes: new Map() };
    collections.set(name, image);
  }
  return image;
}

function apply(collections: Map<string, CollectionImage>, change: Document): boolean {
  if (typeof change.c !== 'string') return false;
  const image = imageOf(collections, change.c);
  const { put, index } = change as { put?: Document; index?: IndexDefinition };
  if (typeof put === 'object' && put !== null) {
    image.docs.set(idKey(put._id), put);
  } else if ('remove' in change) {
    image.docs.delete(idKey(change.remove));
  } else if (typeof index === 'object' && index !== null && typeof index.name === 'string') {
    image.indexes.set(index.name, index);
  } else if (typeof change.dropIndex === 'string') {
    image.indexes.delete(change.dropIndex);
  } else {
    return false;
  }
  return true;
}

function corrupt(path: string, detail: string): EmbeddedDataError {
  return new EmbeddedDataError(
    'corrupt',
    path,
    `${path} is damaged (${detail}); nothing was loaded. Restore the directory from a backup, ` +
      'or move this file away to open what the other files hold.',
  );
}

function readSnapshot(dir: string, collections: Map<string, CollectionImage>): number {
  const path = join(dir, SNAPSHOT);
  if (!existsSync(path)) return 0;
  const { records, damage } = decodeRecords(readFileSync(path));
  if (damage) throw corrupt(path, `${damage.reason} at byte ${damage.offset}`);
  const header = records[0]?.[0];
  if (
    header?.format !== FORMAT ||
    header.version !== FORMAT_VERSION ||
    !Number.isInteger(header.generation)
  ) {
    throw corrupt(path, `not a ${FORMAT} snapshot of version ${FORMAT_VERSION}`);
  }
  const end = records.at(-1)?.[0];
  if (records.length < 2 || end?.end !== true) throw corrupt(path, 'it ends before its last record');
  for (const record of records.slice(1, -1)) {
    for (const change of record) if (!apply(collections, change)) throw corrupt(path, 'an unknown record');
  }
  return header.generation as number;
}

/** The journals of `dir` by generation, oldest first. */
function journalsOf(dir: string): number[] {
  return readdirSync(dir)
    .flatMap((name) => {
      const match = JOURNAL.exec(name);
      return match ? [Number(match[1])] : [];
    })
    .sort((a, b) => a - b);
}

/**
 * Replays one journal. A damaged record ends it: a torn tail (the write that was under way when
 * the process died, never acknowledged) is cut off, after a copy of the cut bytes is kept
 * beside it. Damage in a journal that a newer one follows is corruption: nothing is opened.
 */
function replayJournal(
  path: string,
  collections: Map<string, CollectionImage>,
  last: boolean,
  warn: (message: string) => void,
): number {
  const bytes = readFileSync(path);
  const { records, end, damage } = decodeRecords(bytes);
  for (const record of records) {
    for (const change of record) if (!apply(collections, change)) throw corrupt(path, 'an unknown record');
  }
  if (!damage) return bytes.length;
  if (!last) throw corrupt(path, `${damage.reason} at byte ${damage.offset}, and a newer journal follows`);
  const kept = `${path}.damaged-${Date.now()}`;
  writeFileSync(kept, bytes.subarray(end));
  const fd = openSync(path, 'r+');
  try {
    ftruncateSync(fd, end);
    fdatasyncSync(fd);
  } finally {
    closeSync(fd);
  }
  warn(
    `[@store/embedded] ${path}: ${damage.reason} at byte ${damage.offset}; the last ${bytes.length - end} bytes ` +
      `(a write cut short, never acknowledged) were set aside in ${kept}`,
  );
  return end;
}

/** What `openDataDirectory` read. */
export interface OpenedDirectory {
  collections: Map<string, CollectionImage>;
  /** Appends to the newest journal. */
  journal: Journal;
  generation: number;
  snapshotBytes: number;
  /** Releases the directory's lock. */
  unlock(): void;
}

/** Locks `dir` (creating it if needed) and reads everything it holds. */
export function openDataDirectory(dir: string, warn: (message: string) => void): OpenedDirectory {
  mkdirSync(dir, { recursive: true });
  const unlock = lockDirectory(dir);
  try {
    const tmp = join(dir, SNAPSHOT_TMP);
    if (existsSync(tmp)) unlinkSync(tmp); // a compaction cut short: the journals still hold its data
    const collections = new Map<string, CollectionImage>();
    const snapshotGeneration = readSnapshot(dir, collections);
    const journals = journalsOf(dir);
    for (const stale of journals.filter((generation) => generation < snapshotGeneration)) {
      unlinkSync(join(dir, journalName(stale)));
    }
    const live = journals.filter((generation) => generation >= snapshotGeneration);
    let size = 0;
    for (const [i, generation] of live.entries()) {
      size = replayJournal(join(dir, journalName(generation)), collections, i === live.length - 1, warn);
    }
    const generation = live.at(-1) ?? snapshotGeneration;
    const path = join(dir, journalName(generation));
    if (live.length === 0) touchFile(path, dir);
    const snapshotPath = join(dir, SNAPSHOT);
    const snapshotBytes = existsSync(snapshotPath) ? statSync(snapshotPath).size : 0;
    return { collections, journal: new Journal(path, size), generation, snapshotBytes, unlock };
  } catch (error) {
    unlock();
    throw error;
  }
}

/** Starts journal `generation` in `dir` and sends the journal's later records to it. */
export function startJournal(dir: string, journal: Journal, generation: number): void {
  const path = join(dir, journalName(generation));
  touchFile(path, dir);
  journal.switchTo(path);
}

/**
 * Writes `state` as the snapshot of `generation` (through a temporary file, synced, renamed),
 * yielding to other work between batches, then deletes the journals it makes useless.
 * Answers the snapshot's size.
 */
export async function writeSnapshot(dir: string, generation: number, state: StateImage): Promise<number> {
  const tmp = join(dir, SNAPSHOT_TMP);
  const handle = await open(tmp, 'w');
  let bytes = 0;
  const write = async (changes: Document[]) => {
    const record = encodeRecord(changes);
    bytes += record.length;
    await handle.write(record);
  };
  try {
    await write([{ format: FORMAT, version: FORMAT_VERSION, generation }]);
    let batch: Change[] = [];
    let documents = 0;
    for (const [name, { docs, indexes }] of state) {
      for (const index of indexes) batch.push({ c: name, index });
      for (const doc of docs) {
        batch.push({ c: name, put: doc });
        documents += 1;
        if (batch.length >= SNAPSHOT_BATCH) {
          await write(batch);
          batch = [];
          await nextTurn();
        }
      }
    }
    if (batch.length > 0) await write(batch);
    await write([{ end: true, documents }]);
    await handle.datasync();
  } finally {
    await handle.close();
  }
  renameSync(tmp, join(dir, SNAPSHOT));
  syncDirectory(dir);
  for (const older of journalsOf(dir).filter((journal) => journal < generation)) {
    unlinkSync(join(dir, journalName(older)));
  }
  return bytes;
}
