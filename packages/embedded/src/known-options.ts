/**
 * The options each method of the embedded engine takes, by name: those it implements, and a few
 * the driver sends routinely that cannot change an answer. Any other option is refused with
 * NotImplemented (238) naming it, never ignored: code written for MongoDB gets MongoDB's answer
 * or a refusal, never a different answer in silence. An option whose value is `undefined` is
 * absent.
 */
import type { IndexDescription } from '@store/common';
import { EmbeddedDbError } from './errors';

/** What `findOneAndReplace` takes; `findOneAndUpdate` takes `arrayFilters` too. */
const FIND_AND_MODIFY = [
  'returnDocument',
  'upsert',
  'projection',
  'sort',
  'maxTimeMS',
  'hint',
  'let',
  'includeResultMetadata',
  'collation',
] as const;

/**
 * Method -> the options it implements today (`hint` is checked against the collection's indexes
 * by {@link checkOptions}). When a method learns an option, add its name here in the same change:
 * an option not listed is refused.
 */
export const KNOWN_OPTIONS = {
  find: ['projection', 'sort', 'skip', 'limit', 'maxTimeMS', 'maxExamined', 'hint', 'collation', 'let'],
  findOne: ['projection', 'sort', 'skip', 'maxTimeMS', 'maxExamined', 'hint', 'collation', 'let'],
  countDocuments: ['maxTimeMS', 'maxExamined', 'hint', 'skip', 'limit', 'collation'],
  estimatedDocumentCount: ['maxTimeMS'],
  distinct: ['maxTimeMS', 'maxExamined', 'hint', 'collation'],
  aggregate: ['let', 'maxTimeMS', 'maxExamined', 'hint', 'collation'],
  insertOne: [],
  insertMany: ['ordered'],
  bulkWrite: ['ordered', 'let'],
  findOneAndReplace: FIND_AND_MODIFY,
  findOneAndUpdate: [...FIND_AND_MODIFY, 'arrayFilters'],
  findOneAndDelete: ['projection', 'sort', 'maxTimeMS', 'hint', 'let', 'includeResultMetadata', 'collation'],
  updateOne: ['upsert', 'maxTimeMS', 'hint', 'let', 'arrayFilters', 'collation'],
  replaceOne: ['upsert', 'maxTimeMS', 'hint', 'let', 'collation'],
  updateMany: ['upsert', 'maxTimeMS', 'maxExamined', 'hint', 'let', 'arrayFilters', 'collation'],
  deleteOne: ['maxTimeMS', 'hint', 'let', 'collation'],
  deleteMany: ['maxTimeMS', 'maxExamined', 'hint', 'let', 'collation'],
  createIndex: [
    'name',
    'unique',
    'sparse',
    'expireAfterSeconds',
    'default_language',
    'language_override',
    'collation',
  ],
} as const satisfies Record<string, readonly string[]>;

/** A method of the engine that takes options. */
export type OptionsMethod = keyof typeof KNOWN_OPTIONS;

/** {@link KNOWN_OPTIONS} as sets, built once: every call of every method checks its options. */
const KNOWN_SETS = new Map<string, ReadonlySet<string>>(
  Object.entries(KNOWN_OPTIONS).map(([method, names]) => [method, new Set<string>(names)]),
);

/** Why a no-op option's value is refused, or undefined when it is accepted. */
type NoOpCheck = (value: unknown, method: string) => EmbeddedDbError | undefined;

const always: NoOpCheck = () => undefined;

const notImplemented = (method: string, option: string, why = ''): EmbeddedDbError =>
  new EmbeddedDbError(
    'NotImplemented',
    `${method} option '${option}' is not supported by the embedded engine${why}`,
  );

const SESSIONS = 'sessions and transactions are not supported by the embedded engine';
const CHANGE_STREAMS = 'change streams are not supported by the embedded engine';

/** What a refusal of these options adds to name the feature behind them. */
const REFUSED_FEATURES: Readonly<Record<string, string>> = {
  session: ` (${SESSIONS})`,
};

/** `watch()` of a database or collection: NotImplemented (238). */
export function refuseChangeStreams(): never {
  throw new EmbeddedDbError('NotImplemented', CHANGE_STREAMS);
}

/** `startSession()`: NotImplemented (238). */
export function refuseSessions(): never {
  throw new EmbeddedDbError('NotImplemented', SESSIONS);
}

/** Read concern levels that answer alike on one node whose writes are visible once acknowledged. */
const READ_CONCERN_LEVELS = new Set(['local', 'available', 'majority']);

/** `local`, `available` and `majority` (a level, or `{ level }`); anything else is refused. */
const readConcern: NoOpCheck = (value, method) => {
  const level = typeof value === 'string' ? value : undefined;
  if (level !== undefined && READ_CONCERN_LEVELS.has(level)) return undefined;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value).filter(([, given]) => given !== undefined);
    if (entries.every(([key, given]) => key === 'level' && READ_CONCERN_LEVELS.has(String(given)))) {
      return undefined;
    }
  }
  return notImplemented(method, 'readConcern', ' beyond the levels local, available and majority');
};

/** Write concern fields a standalone with a journal honours (the driver's names and MongoDB's). */
const WRITE_CONCERN_FIELDS = new Set(['w', 'j', 'journal', 'wtimeout', 'wtimeoutMS', 'fsync']);

/**
 * `w` 1 or 'majority', with `j` / `wtimeout` / `fsync`: a standalone with a journal honours them.
 * More members than one is the standalone's BadValue. `w: 0` is refused: the driver answers an
 * unacknowledged write with no result and no error, which the engine does not do.
 */
const writeConcern: NoOpCheck = (value, method) => {
  if (typeof value !== 'object' || value === null) return notImplemented(method, 'writeConcern');
  const concern = value as Record<string, unknown>;
  const unknown = Object.keys(concern).find((key) => !WRITE_CONCERN_FIELDS.has(key));
  if (unknown !== undefined) return notImplemented(method, `writeConcern.${unknown}`);
  const { w } = concern;
  if (w === undefined || w === 1 || w === 'majority') return undefined;
  if (w === 0) return notImplemented(method, 'writeConcern', ' with w: 0 (unacknowledged writes)');
  if (typeof w === 'number' && Number.isInteger(w) && w > 1) {
    return new EmbeddedDbError('BadValue', "cannot use 'w' > 1 on a standalone");
  }
  if (typeof w === 'string') {
    return new EmbeddedDbError('BadValue', `cannot use non-majority 'w' mode ${w} on a standalone`);
  }
  return new EmbeddedDbError('FailedToParse', 'w has to be a non-negative number or a string');
};

/**
 * Options accepted by every method because they cannot change an answer here; each says why.
 * Only these: an option that could change an answer (a session, `timeoutMS`, `collation`, `let`,
 * the driver's BSON decoding options...) is refused unless the method implements it.
 */
const NO_OP_OPTIONS: Readonly<Record<string, NoOpCheck>> = {
  /** Seen only in the server's logs and profiler. */
  comment: always,
  /** How many documents each reply of a cursor carries: the engine answers with all of them at once. */
  batchSize: always,
  /** Keeps an idle cursor open: the engine's answers are whole, no cursor stays open to time out. */
  noCursorTimeout: always,
  /** Partial answers from a sharded cluster missing a shard: one node has no shard to miss. */
  allowPartialResults: always,
  /**
   * Lets a sort spill to disk past 100 MB: the engine sorts in memory without that limit, as
   * MongoDB 6.0 and later do by default (its limits are `maxTimeMS` and `maxExamined`).
   */
  allowDiskUse: always,
  /** Ignored by MongoDB itself since 4.4. */
  oplogReplay: always,
  /** Which member of a replica set answers: one node answers every read preference alike. */
  readPreference: always,
  /** No collection of the engine has a validator to bypass. */
  bypassDocumentValidation: always,
  /** Building an index in the background: ignored by MongoDB itself since 4.2. */
  background: always,
  /**
   * Reads and writes a time-series collection's raw buckets (MongoDB 8.2): the engine has no
   * time-series collections, and on any other collection MongoDB ignores it too.
   */
  rawData: always,
  readConcern,
  writeConcern,
};

/** The hint `{ $natural: 1 }`: a scan in insertion order, the engine's own order. */
function isForwardNatural(hint: unknown): boolean {
  if (typeof hint !== 'object' || hint === null) return false;
  const entries = Object.entries(hint);
  return entries.length === 1 && entries[0]?.[0] === '$natural' && Number(entries[0][1]) === 1;
}

/** Whether the key pattern `hint` is `key`: the same fields in the same order, each of the same kind. */
function sameKeyPattern(hint: object, key: Record<string, unknown>): boolean {
  const given = Object.entries(hint);
  const own = Object.entries(key);
  return (
    given.length === own.length &&
    given.every(([field, kind], i) => own[i]?.[0] === field && String(own[i]?.[1]) === String(kind))
  );
}

/**
 * Checks a `hint`: it must name an existing index (by name or key pattern), else MongoDB's
 * BadValue. Since the engine chooses its own plan, an ordinary index changes no answer; a sparse,
 * text or 2dsphere index does on MongoDB (a hinted query answers from the documents that index
 * holds), and so does a reverse natural scan: those are refused.
 */
function checkHint(method: string, hint: unknown, indexes: () => readonly IndexDescription[]): void {
  if (hint === null || isForwardNatural(hint)) return;
  if (typeof hint !== 'string' && (typeof hint !== 'object' || Array.isArray(hint))) {
    throw new EmbeddedDbError('FailedToParse', 'hint must be a string or an object');
  }
  // An empty hint is no hint, as MongoDB reads it.
  if (typeof hint === 'string' ? hint === '' : Object.keys(hint).length === 0) return;
  if (typeof hint === 'object' && Object.hasOwn(hint, '$natural')) {
    throw notImplemented(method, 'hint', ' as a reverse or compound $natural scan');
  }
  const found = indexes().find((index) =>
    typeof hint === 'string' ? index.name === hint : sameKeyPattern(hint, index.key),
  );
  if (found === undefined) {
    throw new EmbeddedDbError('BadValue', 'hint provided does not correspond to an existing index');
  }
  const kinds = Object.values(found.key);
  if (found.sparse === true || kinds.includes('text') || kinds.includes('2dsphere')) {
    throw notImplemented(
      method,
      'hint',
      ` naming the ${found.sparse === true ? 'sparse' : String(kinds.find((k) => typeof k === 'string'))} ` +
        `index '${found.name}' (MongoDB then answers from that index's documents only)`,
    );
  }
}

/**
 * Throws NotImplemented (238) naming the first option of `options` that `method` neither
 * implements nor accepts as a no-op; a no-op option's value is checked too (a `writeConcern`
 * asking for more than one member is MongoDB's BadValue). `indexes` lists the collection's
 * indexes, for a `hint`.
 */
export function checkOptions(
  method: OptionsMethod,
  options: unknown,
  indexes?: () => readonly IndexDescription[],
): void {
  if (typeof options !== 'object' || options === null) return;
  const known = KNOWN_SETS.get(method) as ReadonlySet<string>;
  const given = options as Record<string, unknown>;
  // `for...in` over own keys: no array of entries per call (options are plain objects).
  for (const name in given) {
    if (!Object.hasOwn(given, name)) continue;
    const value = given[name];
    if (value === undefined) continue;
    if (name === 'hint' && known.has(name)) {
      if (!indexes) throw notImplemented(method, name);
      checkHint(method, value, indexes);
    } else if (!known.has(name)) {
      const noOp = Object.hasOwn(NO_OP_OPTIONS, name) ? NO_OP_OPTIONS[name] : undefined;
      if (!noOp) {
        throw notImplemented(
          method,
          name,
          Object.hasOwn(REFUSED_FEATURES, name) ? REFUSED_FEATURES[name] : '',
        );
      }
      const refused = noOp(value, method);
      if (refused) throw refused;
    }
  }
}
