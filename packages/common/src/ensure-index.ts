/**
 * Reconciles one index the store owns with what the collection has: an
 * index of the store's name whose keys or options changed since the last start is replaced; one
 * the application made itself (another name, same keys) is left alone with a warning. Start-up
 * never fails on an index that exists in another shape.
 */
import type {
  Collation,
  IndexDescription,
  IndexOptions,
  IndexSpec,
  StoreCollection,
  StoreDb,
} from './db-types';

/** An index the store owns: its keys and options, under a name of the store's own. */
export interface OwnedIndex {
  readonly spec: IndexSpec;
  readonly options: IndexOptions & { readonly name: string };
}

/** An owned index and the collection it belongs on. */
export interface CollectionIndex {
  readonly collection: string;
  readonly index: OwnedIndex;
}

/** What {@link ensureIndex} did. */
export type IndexOutcome = 'present' | 'created' | 'replaced' | 'kept-application-index' | 'refused-by-data';

/** The options compared between the wanted and the existing index; absent means the default. */
const COMPARED_OPTIONS = [
  'unique',
  'sparse',
  'expireAfterSeconds',
  'default_language',
  'language_override',
] as const;

const TEXT_DEFAULTS = { default_language: 'english', language_override: 'language' } as const;

const isText = (spec: IndexSpec): boolean => Object.values(spec).includes('text');

/** The key pattern as `listIndexes` shows it: a text index's fields move to `weights`. */
function describedKey(spec: IndexSpec): Record<string, unknown> {
  if (!isText(spec)) return spec;
  const key: Record<string, unknown> = {};
  for (const [field, kind] of Object.entries(spec)) {
    if (kind !== 'text') key[field] = kind;
  }
  return { _fts: 'text', _ftsx: 1, ...key };
}

const textFields = (spec: IndexSpec): string[] =>
  Object.entries(spec)
    .filter(([, kind]) => kind === 'text')
    .map(([field]) => field)
    .sort();

/** Key patterns are ordered: `{ a: 1, b: 1 }` is not `{ b: 1, a: 1 }`; numbers compare by value (1 and 1.0). */
function sameKind(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const left = Object.entries(a);
  const right = Object.entries(b);
  return (
    left.length === right.length &&
    left.every(([field, kind], i) => {
      const other = right[i];
      if (other?.[0] !== field) return false;
      return typeof kind === 'string' ? other[1] === kind : Number(other[1]) === Number(kind);
    })
  );
}

/** Whether an existing index is exactly the one wanted (keys, text fields, compared options). */
function matches(existing: IndexDescription, wanted: OwnedIndex): boolean {
  const { spec, options } = wanted;
  if (!sameKind(existing.key, describedKey(spec))) return false;
  if (isText(spec)) {
    const weights = Object.keys(existing.weights ?? {}).sort();
    if (weights.join('\u0000') !== textFields(spec).join('\u0000')) return false;
  }
  if (!sameCollation(existing.collation, options.collation)) return false;
  const defaults: Partial<Record<string, unknown>> = isText(spec) ? TEXT_DEFAULTS : {};
  return COMPARED_OPTIONS.every((name) => {
    const want = options[name] ?? defaults[name];
    const have = existing[name] ?? defaults[name];
    if (name === 'unique' || name === 'sparse') return (want === true) === (have === true);
    return want === have || (want !== undefined && have !== undefined && Number(want) === Number(have));
  });
}

/**
 * Whether an index's collation (as `listIndexes` shows it: every field, the server's defaults
 * filled in) is the one wanted (the fields given): none and `simple` are the same.
 */
function sameCollation(existing: unknown, wanted: Collation | undefined): boolean {
  const have = existing as Record<string, unknown> | undefined;
  const binary = (collation: { locale?: unknown } | undefined) =>
    collation === undefined || collation.locale === 'simple';
  if (binary(wanted) || binary(have)) return binary(wanted) && binary(have);
  return Object.entries(wanted as Collation).every(([field, value]) => have?.[field] === value);
}

/** Whether two indexes would collide in MongoDB: the same key pattern (any two text indexes do). */
function sameKeys(existing: IndexDescription, spec: IndexSpec): boolean {
  if (isText(spec)) return existing.key._fts === 'text';
  return sameKind(existing.key, spec);
}

/** MongoDB's code for a collection that does not exist (yet): it has no indexes. */
const NAMESPACE_NOT_FOUND = 26;

async function listIndexes(collection: StoreCollection): Promise<IndexDescription[]> {
  try {
    return await collection.listIndexes().toArray();
  } catch (error) {
    if ((error as { code?: unknown } | null)?.code === NAMESPACE_NOT_FOUND) return [];
    throw error;
  }
}

/** Where {@link ensureIndex} says what it did not do. */
export interface IndexLogger {
  warn(message: string): void;
}

/**
 * Makes `collection` hold `wanted`: nothing when it is there as it is; created when missing;
 * dropped and created again when the store's index of that name differs. An index of another
 * name on the same keys is the application's: it is kept, and the store's is not made.
 */
export async function ensureIndex(
  collection: StoreCollection,
  wanted: OwnedIndex,
  logger: IndexLogger,
): Promise<IndexOutcome> {
  const existing = await listIndexes(collection);
  const named = existing.find((index) => index.name === wanted.options.name);
  if (named !== undefined && matches(named, wanted)) return 'present';
  if (named !== undefined) {
    await collection.dropIndex(named.name);
    return (await create(collection, wanted, logger)) ?? 'replaced';
  }
  const theirs = existing.find((index) => sameKeys(index, wanted.spec));
  if (theirs !== undefined) {
    logger.warn(
      `[@store] kept the index "${theirs.name}" on ${collection.collectionName} (it is not the store's ` +
        `"${wanted.options.name}"; drop it to let the store manage that index)`,
    );
    return 'kept-application-index';
  }
  return (await create(collection, wanted, logger)) ?? 'created';
}

/** MongoDB's duplicate key code: a unique index over documents that share a value. */
const DUPLICATE_KEY = 11000;

/** Creates the index; a unique one the stored documents violate is reported, not thrown. */
async function create(
  collection: StoreCollection,
  wanted: OwnedIndex,
  logger: IndexLogger,
): Promise<'refused-by-data' | undefined> {
  try {
    await collection.createIndex(wanted.spec, wanted.options);
    return undefined;
  } catch (error) {
    if ((error as { code?: unknown } | null)?.code !== DUPLICATE_KEY) throw error;
    logger.warn(
      `[@store] could not create the unique index "${wanted.options.name}" on ${collection.collectionName}: ` +
        `stored documents share a value of ${Object.keys(wanted.spec).join(', ')}; remove the duplicates and restart`,
    );
    return 'refused-by-data';
  }
}

/**
 * Reconciles a list of owned indexes: the indexes of one collection one after the other (its
 * index list is read before each change), collections in parallel.
 */
export async function ensureIndexes(
  db: StoreDb,
  indexes: readonly CollectionIndex[],
  logger: IndexLogger,
): Promise<void> {
  const byCollection = new Map<string, OwnedIndex[]>();
  for (const { collection, index } of indexes) {
    const list = byCollection.get(collection) ?? [];
    list.push(index);
    byCollection.set(collection, list);
  }
  await Promise.all(
    [...byCollection].map(async ([name, list]) => {
      const collection = db.collection(name);
      for (const index of list) await ensureIndex(collection, index, logger);
    }),
  );
}
