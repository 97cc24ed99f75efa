/**
 * A data directory of the embedded engine:
 *
 *     LOCK               the process that has it open (see lock.ts)
 *     snapshot.bson      every collection at the start of journal generation g (header says g)
 *     journal-<g>.log    the changes since, one record per operation (per slice of a long
 *                        updateMany / deleteMany), synced before it is acknowledged
 *
 * Opening reads the snapshot, replays journals g, g+1, ... in order and rebuilds the indexes.
 * Compaction switches to journal g+1 (created only once every earlier record is synced, see
 * journal.ts), writes the state of that instant as `snapshot.tmp` in the background, syncs it,
 * renames it over `snapshot.bson` and deletes the older journals: a crash at any point leaves a
 * snapshot and the journals that complete it.
 */
import { existsSync, readdirSync, readFileSync, statSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Document } from '@store/common';
import { Binary, BSON } from 'bson';
import type { IndexDefinition } from '../collection';
import { idKey } from '../values';
import { EmbeddedDataError } from './data-error';
import { makeDataDirectory } from './data-home';
import { RowMakers } from './doc-columns';
import { type FileSystem, nodeFileSystem } from './file-system';
import { encodeIdOrder } from './id-order';
import { Journal, syncDirectory, touchFile } from './journal';
import { lockDirectory } from './lock';
import { type Change, encodeRecord, NOT_BSON, readPayloads, scanRecords, splitDocuments } from './records';
import { cutTornTail, damagedJournal, repairJournal } from './recovery';
import { type DocumentBatch, decodeDocumentBatch, encodeDocumentBatch, isBatch } from './snapshot-body';

export const SNAPSHOT = 'snapshot.bson';
const SNAPSHOT_TMP = 'snapshot.tmp';
const FORMAT = 'store-embedded';
/** The version `writeSnapshot` writes. */
const FORMAT_VERSION = 2;
const JOURNAL = /^journal-(\d+)\.log$/;
/** Changes per snapshot record. */
const SNAPSHOT_BATCH = 1_000;

export const journalName = (generation: number): string => `journal-${generation}.log`;

/** One collection as read from disk. */
interface CollectionImage {
  docs: Map<string, Document>;
  indexes: Map<string, IndexDefinition>;
  /** The snapshot's record of the `_id` index's order (see id-order.ts; the open checks the order it gives). */
  idOrder?: Uint8Array;
}

/** One collection as a snapshot is written from it. */
interface CollectionState {
  docs: Document[];
  indexes: IndexDefinition[];
  /** The insertion sequences of the `_id` index's entries, in its order (see id-order.ts). */
  idOrder?: readonly number[];
}

/** What a snapshot is written from: each collection's documents, index definitions and `_id` order. */
export type StateImage = Iterable<[name: string, image: CollectionState]>;

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
  const { put, index, idOrder } = change as { put?: Document; index?: IndexDefinition; idOrder?: unknown };
  if (typeof put === 'object' && put !== null) {
    image.docs.set(idKey(put._id), put);
  } else if ('remove' in change) {
    image.docs.delete(idKey(change.remove));
  } else if (idOrder instanceof Binary) {
    image.idOrder = idOrder.buffer.subarray(0, idOrder.position);
  } else if (typeof index === 'object' && index !== null && typeof index.name === 'string') {
    image.indexes.set(index.name, index);
  } else if (typeof change.dropIndex === 'string') {
    image.indexes.delete(change.dropIndex);
  } else if (typeof change.renameTo === 'string') {
    collections.set(change.renameTo, image);
    collections.delete(change.c);
  } else if (change.drop === true) {
    collections.delete(change.c);
  } else {
    return false;
  }
  return true;
}

/** Applies the changes of one record; false at the first unknown one. */
function applyAll(collections: Map<string, CollectionImage>, changes: Document[]): boolean {
  for (const change of changes) if (!apply(collections, change)) return false;
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

/** The snapshot versions this engine reads: 1 (BSON changes), 2 (documents by batches, see snapshot-body.ts). */
const READ_VERSIONS: readonly unknown[] = [1, FORMAT_VERSION];

const isHeader = (header: Document | undefined): boolean =>
  header?.format === FORMAT && READ_VERSIONS.includes(header.version) && Number.isInteger(header.generation);

/** One record of a snapshot after its header: changes, or (version 2) a batch of documents. */
type SnapshotRecord = { changes: Document[] } | DocumentBatch;

/** The record of a snapshot of `version` held by `payload`; undefined if it cannot be read. */
function snapshotRecord(payload: Buffer, version: unknown, makers: RowMakers): SnapshotRecord | undefined {
  if (version === 2 && payload.length >= 5) {
    const metaEnd = payload.readInt32LE(0);
    if (metaEnd < 5 || metaEnd > payload.length) return undefined;
    let meta: Document;
    try {
      meta = BSON.deserialize(payload.subarray(0, metaEnd));
    } catch {
      return undefined;
    }
    if (isBatch(meta)) return decodeDocumentBatch(payload, meta, metaEnd, makers);
  }
  const changes = splitDocuments(payload);
  return changes && { changes };
}

/** Takes a batch's documents into its collection; false at the first that is not a document. */
function applyBatch(collections: Map<string, CollectionImage>, { collection, docs }: DocumentBatch): boolean {
  const image = imageOf(collections, collection);
  for (const doc of docs) {
    if (typeof doc !== 'object' || doc === null) return false;
    image.docs.set(idKey(doc._id), doc);
  }
  return true;
}

/**
 * Reads the snapshot into `collections`, each record applied as it is decoded (its changes are
 * not all held at once), and answers its generation. The first record is the header, the last
 * the end mark; damage is reported first, then a wrong header, a missing end, an unknown record.
 */
function readSnapshot(dir: string, collections: Map<string, CollectionImage>): number {
  const path = join(dir, SNAPSHOT);
  if (!existsSync(path)) return 0;
  let header: Document | undefined;
  let records = 0;
  let applying = true;
  /** The last changes read: applied once another record follows them (the last one is the end mark). */
  let held: Document[] | undefined;
  const makers = new RowMakers();
  const { damage } = readPayloads(readFileSync(path), (payload) => {
    records += 1;
    if (records === 1) {
      const first = splitDocuments(payload);
      if (!first) return NOT_BSON;
      header = first[0];
      applying = isHeader(header);
      return undefined;
    }
    const record = snapshotRecord(payload, header?.version, makers);
    if (!record)
      return header?.version === 2 ? 'a record that is neither BSON nor a batch of documents' : NOT_BSON;
    if (held && applying) applying = applyAll(collections, held);
    held = undefined;
    if ('changes' in record) held = record.changes;
    else if (applying) applying = applyBatch(collections, record);
    return undefined;
  });
  if (damage) throw corrupt(path, `${damage.reason} at byte ${damage.offset}`);
  if (!isHeader(header))
    throw corrupt(path, `not a ${FORMAT} snapshot of version ${READ_VERSIONS.join(' or ')}`);
  if (records < 2 || held?.[0]?.end !== true) throw corrupt(path, 'it ends before its last record');
  if (!applying) throw corrupt(path, 'an unknown record');
  return header?.generation as number;
}

/** The journals of `dir` by generation, oldest first. */
export function journalsOf(dir: string): number[] {
  return readdirSync(dir)
    .flatMap((name) => {
      const match = JOURNAL.exec(name);
      return match ? [Number(match[1])] : [];
    })
    .sort((a, b) => a - b);
}

/**
 * Replays one journal. A torn tail (damage with no whole record after it: the write under way
 * when the process died, never acknowledged) is cut off, after a copy of the cut bytes is kept
 * beside it. Damage followed by whole records, or in a journal that a newer one follows, is
 * corruption: nothing is opened, unless `repair` asks to set the damaged bytes aside and keep
 * every whole record (see recovery.ts). Answers the journal's size.
 */
function replayJournal(
  path: string,
  collections: Map<string, CollectionImage>,
  last: boolean,
  warn: (message: string) => void,
  repair: boolean,
): number {
  const bytes = readFileSync(path);
  // Each whole record is applied as it is read; what a refusal below leaves in `collections` is
  // never opened.
  let known = true;
  const scan = scanRecords(bytes, (changes) => {
    if (known) known = applyAll(collections, changes);
  });
  const [damage] = scan.damage;
  if (damage && !repair) {
    if (scan.afterDamage > 0) throw damagedJournal(path, scan);
    if (!last) throw corrupt(path, `${damage.reason} at byte ${damage.offset}, and a newer journal follows`);
  }
  if (!known) throw corrupt(path, 'an unknown record');
  if (!damage) return bytes.length;
  return scan.afterDamage > 0 ? repairJournal(path, bytes, scan, warn) : cutTornTail(path, bytes, scan, warn);
}

/** How `openDataDirectory` deals with damage and a lost lock. */
export interface OpenOptions {
  /** Sets damaged journal bytes aside and keeps every whole record, instead of refusing. */
  repair?: boolean;
  /** Called if the directory's lock is found removed or taken by another process. */
  lost?: (message: string) => void;
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

/**
 * Locks `dir` (creating it if needed) and reads everything it holds; the journal then writes
 * through `fs`.
 */
export function openDataDirectory(
  dir: string,
  warn: (message: string) => void,
  fs: FileSystem = nodeFileSystem,
  { repair = false, lost }: OpenOptions = {},
): OpenedDirectory {
  makeDataDirectory(dir, warn);
  const unlock = lockDirectory(dir, lost);
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
    // Only empty journals after it count as none: a switch creates the next journal only once
    // every record of the older one is synced, so an empty newest journal beside a torn one is a
    // switch cut short (or left by an earlier version, which wrote the old journal after
    // creating the new one) and its torn record was never acknowledged.
    const newestWithRecords = live.findLastIndex(
      (generation) => statSync(join(dir, journalName(generation))).size > 0,
    );
    let size = 0;
    for (const [i, generation] of live.entries()) {
      const last = i >= newestWithRecords;
      size = replayJournal(join(dir, journalName(generation)), collections, last, warn, repair);
    }
    const generation = live.at(-1) ?? snapshotGeneration;
    const path = join(dir, journalName(generation));
    if (live.length === 0) touchFile(path, dir);
    const snapshotPath = join(dir, SNAPSHOT);
    const snapshotBytes = existsSync(snapshotPath) ? statSync(snapshotPath).size : 0;
    return { collections, journal: new Journal(path, size, fs), generation, snapshotBytes, unlock };
  } catch (error) {
    unlock();
    throw error;
  }
}

/**
 * Switches the journal to journal `generation` in `dir`: the file is created (and synced, with
 * its directory entry) only once every record appended before is on disk, and the records
 * appended after go there. Resolves once it is created; a refused switch (no space, no file
 * descriptor) rejects and is tried again with the next write.
 */
export function startJournal(dir: string, journal: Journal, generation: number): Promise<void> {
  return journal.switchTo(join(dir, journalName(generation)));
}

/**
 * Writes `state` as the snapshot of `generation` (through a temporary file, synced, renamed),
 * yielding to other work between batches, then deletes the journals it makes useless.
 * Answers the snapshot's size. A failure (a full disk) removes the temporary file and leaves
 * the previous snapshot and every journal as they were.
 */
export async function writeSnapshot(
  dir: string,
  generation: number,
  state: StateImage,
  fs: FileSystem = nodeFileSystem,
): Promise<number> {
  const tmp = join(dir, SNAPSHOT_TMP);
  const fd = fs.open(tmp, 'w');
  let bytes = 0;
  const write = (record: Buffer) => {
    let written = 0;
    while (written < record.length) written += fs.write(fd, record, written, record.length - written);
    bytes += record.length;
  };
  try {
    try {
      write(encodeRecord([{ format: FORMAT, version: FORMAT_VERSION, generation }]));
      let documents = 0;
      for (const [name, { docs, indexes, idOrder }] of state) {
        const created: Change[] = indexes.map((index) => ({ c: name, index }));
        if (created.length > 0) write(encodeRecord(created));
        for (let from = 0; from < docs.length; from += SNAPSHOT_BATCH) {
          for (const record of encodeDocumentBatch(name, docs.slice(from, from + SNAPSHOT_BATCH)))
            write(record);
          documents += Math.min(SNAPSHOT_BATCH, docs.length - from);
          await nextTurn();
        }
        if (idOrder) write(encodeRecord([{ c: name, idOrder: new Binary(encodeIdOrder(idOrder)) }]));
      }
      write(encodeRecord([{ end: true, documents }]));
      await fs.datasyncInBackground(fd);
    } finally {
      fs.close(fd);
    }
    fs.rename(tmp, join(dir, SNAPSHOT));
  } catch (error) {
    try {
      fs.unlink(tmp); // frees its space; the previous snapshot and the journals hold everything
    } catch {
      // Already gone, or removed by the next open.
    }
    throw error;
  }
  syncDirectory(dir, fs);
  for (const older of journalsOf(dir).filter((journal) => journal < generation)) {
    try {
      fs.unlink(join(dir, journalName(older)));
    } catch {
      // Left for the next open, which deletes the journals older than the snapshot.
    }
  }
  return bytes;
}
