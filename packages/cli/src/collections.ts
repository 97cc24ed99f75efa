/**
 * `store import` and `store export`, and the seed of `store serve`: whole collections in and out.
 *
 * An import is all or nothing: every document is checked first (ids, ids twice in a collection,
 * the store's internal collections), then each collection is written in large batches into a
 * temporary collection (`tmp.import.<token>.<name>`, with the indexes of the collection it will
 * replace), and the temporary collections are renamed over their targets in one last step. In a
 * data directory that step is one journal record, so a crash at any moment leaves either
 * nothing imported or everything (an open drops the temporary collections a crash left); on
 * MongoDB the collections are renamed one after another.
 */
import { randomBytes } from 'node:crypto';
import type { Document } from '@store/common';
import { TEMPORARY_COLLECTION_PREFIX } from '@store/embedded';
import { BSON, EJSON } from 'bson';
import { CliError } from './cli-error';
import type { DataFile } from './data-file';
import { type ProgressStream, progress } from './progress';
import type { Target } from './target';

/** Documents one `insertMany` writes at most (one journal record in a data directory). */
const BATCH_DOCUMENTS = 10_000;
/** Bytes of BSON one `insertMany` writes at most, about (estimated from the first documents). */
const BATCH_BYTES = 8 * 1024 * 1024;
/** How many documents of a collection estimate its documents' size. */
const SIZE_SAMPLE = 100;
/**
 * The store's own collections (sessions, sign-in secrets, send limits: `svc-sessions`,
 * `svc-magic-links`, `svc-magic-codes`, `svc-rate-limits`) begin with this.
 */
const INTERNAL_PREFIX = 'svc-';

/** How {@link importCollections} treats collections that exist, and which it takes. */
interface ImportOptions {
  /** Replace what the collections hold (else a collection holding documents is refused). */
  replace: boolean;
  /** Import the store's internal collections too (else a file holding one is refused). */
  includeInternal: boolean;
  /** Where the progress bars are drawn (on a terminal only); none when undefined. */
  progressTo?: ProgressStream | undefined;
}

/** Names of `file`'s collections that already hold documents in `target`, with their counts. */
export async function occupied(target: Target, file: DataFile): Promise<Array<[string, number]>> {
  const counts = await Promise.all(
    [...file.collections.keys()].map(
      async (name) => [name, await target.db.collection(name).countDocuments({})] as [string, number],
    ),
  );
  return counts.filter(([, count]) => count > 0);
}

/**
 * The `_id`s of one collection as MongoDB compares them (1 and 1.0 are the same id): numbers and
 * strings as themselves, any other value by its canonical Extended JSON.
 */
class IdSet {
  readonly #numbers = new Set<number>();
  readonly #strings = new Set<string>();
  readonly #others = new Set<string>();

  #entry(id: unknown): [Set<unknown>, unknown] {
    if (typeof id === 'number') return [this.#numbers, id];
    if (typeof id === 'string') return [this.#strings, id];
    return [this.#others, EJSON.stringify(id, { relaxed: false })];
  }

  /** Adds `id`; answers false when it was there already. */
  add(id: unknown): boolean {
    const [set, key] = this.#entry(id);
    if (set.has(key)) return false;
    set.add(key);
    return true;
  }

  has(id: unknown): boolean {
    const [set, key] = this.#entry(id);
    return set.has(key);
  }
}

/** Why `id` cannot be an `_id`, if it cannot. */
function idProblem(id: unknown): string | undefined {
  if (Array.isArray(id)) return 'an _id cannot be an array';
  if (id instanceof RegExp || (id as { _bsontype?: unknown } | null)?._bsontype === 'BSONRegExp') {
    return 'an _id cannot be a regular expression';
  }
  return undefined;
}

/**
 * Whether the `_id`s of `docs` (those that have one) are all strings, or all numbers, each
 * greater than the one before, and none can be refused (see {@link idProblem}): then no two are
 * equal, and {@link checkFile} need not remember them (json-server files number their
 * documents in order; a million ids in a set cost about half a second).
 */
function increasingIds(docs: readonly Document[]): boolean {
  let last: unknown;
  for (const doc of docs) {
    const id = doc._id;
    if (id === undefined) continue;
    if (typeof id !== 'string' && typeof id !== 'number') return false;
    if (last !== undefined && (typeof last !== typeof id || !((last as string | number) < id))) return false;
    last = id;
  }
  return true;
}

/** Refuses `file` before anything is written: an internal collection, a bad or repeated `_id`. */
function checkFile(file: DataFile, options: ImportOptions): void {
  const names = [...file.collections.keys()];
  const internal = names.filter((name) => name.startsWith(INTERNAL_PREFIX));
  if (internal.length > 0 && !options.includeInternal) {
    throw new CliError(
      `${internal.join(', ')}: the store's internal collections (sessions, sign-in secrets, send ` +
        'limits) are not imported from a file; nothing was imported. Add --include-internal to import them',
    );
  }
  for (const [name, docs] of file.collections) {
    if (increasingIds(docs)) continue;
    const seen = new IdSet();
    for (const [i, doc] of docs.entries()) {
      if (doc._id === undefined) continue;
      const problem = idProblem(doc._id);
      if (problem) throw new CliError(`${name}[${i}]: ${problem}; nothing was imported`);
      if (!seen.add(doc._id)) {
        const taken = new IdSet();
        taken.add(doc._id);
        const first = docs.findIndex((each) => each._id !== undefined && taken.has(each._id));
        throw new CliError(
          `${name}[${i}]: the _id ${EJSON.stringify(doc._id)} is in the file twice (first at ` +
            `${name}[${first}]); nothing was imported`,
        );
      }
    }
  }
}

/** Documents per batch for `docs`: {@link BATCH_DOCUMENTS}, fewer for large documents. */
function batchSize(docs: readonly Document[]): number {
  const sample = docs.slice(0, SIZE_SAMPLE);
  if (sample.length === 0) return BATCH_DOCUMENTS;
  const bytes = sample.reduce((sum, doc) => sum + BSON.calculateObjectSize(doc), 0) / sample.length;
  return Math.max(1, Math.min(BATCH_DOCUMENTS, Math.floor(BATCH_BYTES / bytes)));
}

/** The error of an `insertMany` as the document of the file it names. */
function failedDocument(name: string, from: number, error: unknown): CliError {
  const found = error as { writeErrors?: Array<{ index?: number; errmsg?: string }>; message?: string };
  const writeError = Array.isArray(found.writeErrors) ? found.writeErrors[0] : undefined;
  const at = typeof writeError?.index === 'number' ? `${name}[${from + writeError.index}]` : name;
  return new CliError(`${at}: ${writeError?.errmsg ?? found.message ?? String(error)}; nothing was imported`);
}

/** Writes `docs` into `collection` of `target` in batches (handed over), drawing the progress of `name`. */
async function insertAll(
  target: Target,
  collection: string,
  name: string,
  docs: readonly Document[],
  to: ProgressStream | undefined,
): Promise<void> {
  const size = batchSize(docs);
  const bar = progress(name, docs.length, to);
  try {
    for (let from = 0; from < docs.length; from += size) {
      const batch = docs.slice(from, from + size);
      try {
        await target.insertHandedOver(collection, batch);
      } catch (error) {
        throw failedDocument(name, from, error);
      }
      bar.update(from + batch.length);
    }
  } finally {
    bar.end();
  }
}

/**
 * Imports every collection of `file` into `target`, all or nothing (see the top of this file).
 * Collections that already hold documents are refused unless `replace` (then replaced).
 * Answers the number of documents per collection.
 */
export async function importCollections(
  target: Target,
  file: DataFile,
  options: ImportOptions,
): Promise<Array<[string, number]>> {
  checkFile(file, options);
  const refuseOccupied = async () => {
    const taken = options.replace ? [] : await occupied(target, file);
    if (taken.length === 0) return;
    const list = taken.map(([name, count]) => `${name} (${count})`).join(', ');
    throw new CliError(`already holding documents: ${list}; add --replace to replace them`);
  };
  await refuseOccupied();
  const token = `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
  const staged: Array<[temporary: string, name: string]> = [];
  try {
    for (const [name, docs] of file.collections) {
      const temporary = `${TEMPORARY_COLLECTION_PREFIX}${token}.${name}`;
      staged.push([temporary, name]);
      await target.createLike(temporary, name);
      await insertAll(target, temporary, name, docs, options.progressTo);
    }
    await refuseOccupied(); // written meanwhile (MongoDB, another client)
    await target.renameOver(staged);
  } catch (error) {
    await Promise.all(staged.map(([temporary]) => target.drop(temporary).catch(() => undefined)));
    throw error;
  }
  return [...file.collections].map(([name, docs]) => [name, docs.length]);
}

/** Every collection of `target` with its documents. */
export async function exportCollections(target: Target): Promise<Map<string, Document[]>> {
  const out = new Map<string, Document[]>();
  for (const name of await target.collectionNames()) {
    out.set(name, await target.db.collection(name).find({}).toArray());
  }
  return out;
}
