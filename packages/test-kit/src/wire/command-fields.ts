/**
 * The fields each command of the wire front takes, as tables: those it passes on to the embedded
 * engine (or answers itself), those it accepts since they change no answer, and those MongoDB
 * 7.0 knows that it does not implement; any other field is unknown to MongoDB.
 * `check-command-fields.ts` checks a command against them before it runs.
 */
/** The fields of a command, or of each statement of one of its arrays. */
export interface FieldSet {
  /** Fields the front reads: passed on to the engine, or answered by the front itself (a cursor's batches). */
  readonly passed: readonly string[];
  /** Fields the front accepts without reading them, since they change no answer here. */
  readonly noOp?: readonly string[];
  /** Fields MongoDB 7.0 takes that the front does not implement: refused with 238. */
  readonly known?: readonly string[];
}

/** The fields of one command. */
export interface CommandFields extends FieldSet {
  /** Takes a `readConcern` (the read commands); elsewhere only the default one is accepted. */
  readonly reads?: true;
  /** Takes a `writeConcern` (the commands that write); elsewhere MongoDB's InvalidOptions. */
  readonly writes?: true;
  /** The array of statements (update's `updates`, delete's `deletes`) and the fields of each. */
  readonly statements?: { readonly field: string } & FieldSet;
  /** Every field is taken as is (getParameter: each field names a parameter). */
  readonly anyField?: true;
}

/**
 * Fields every driver may send with any command that change no answer of one node: its
 * database, the session id (sessions without transactions change nothing on one node), the
 * cluster time gossiped, a read preference (one node answers every one alike), and a comment
 * (seen only in logs). `apiVersion` and its companions are checked below.
 */
export const GENERIC_ACCEPTED = new Set(['$db', 'lsid', '$clusterTime', '$readPreference', 'comment']);

export const TRANSACTIONS = 'transactions are not supported by the embedded engine';

/** Fields that only a transaction (or a retryable write, which needs a replica set) sends. */
export const TRANSACTION_FIELDS = new Set([
  'txnNumber',
  'startTransaction',
  'autocommit',
  'stmtId',
  'stmtIds',
]);

/** Commands MongoDB has that the front refuses whole, and why. */
export const REFUSED_COMMANDS: Readonly<Record<string, string>> = {
  commitTransaction: TRANSACTIONS,
  abortTransaction: TRANSACTIONS,
  collMod:
    'collMod (validators, views, changes to an index) is not supported by the embedded engine: ' +
    'drop and create the index again',
};

/** Generic fields MongoDB 7.0 takes on any command that the front does not implement (most are internal). */
export const GENERIC_KNOWN = [
  'maxTimeMS',
  'clientOperationKey',
  'recoveryToken',
  'txnRetryCounter',
  'maxTimeMSOpOnly',
  'usesDefaultMaxTimeMS',
  'allowImplicitCollectionCreation',
  'mayBypassWriteBlocking',
  'databaseVersion',
  'shardVersion',
  'tracking_info',
  'coordinator',
  '$audit',
  '$client',
  '$configServerState',
  '$configTime',
  '$topologyTime',
  '$oplogQueryData',
  '$queryOptions',
  '$replData',
  '$traceCtx',
];

/**
 * The hello handshake takes any field, as MongoDB's does: drivers add fields for newer servers
 * (the driver 7 sends `backpressure`), and none changes an answer of the front.
 */
const HELLO: CommandFields = { passed: [], anyField: true };

const FIND_AND_MODIFY: CommandFields = {
  passed: [
    'query',
    'sort',
    'remove',
    'update',
    'new',
    'fields',
    'upsert',
    'collation',
    'arrayFilters',
    'hint',
    'let',
    'maxTimeMS',
  ],
  noOp: ['bypassDocumentValidation'],
  known: ['sampleId', 'encryptionInformation'],
  writes: true,
};

const DROP_INDEXES: CommandFields = {
  passed: ['index'],
  known: ['collectionUUID', 'isTimeseriesNamespace'],
  writes: true,
};

/**
 * `insert`'s `maxTimeMS`, which core's driver path sends with every write: the engine inserts a
 * batch in one synchronous step, which no time limit can interrupt (the documents are in before
 * any clock is read), so the answer is the one MongoDB gives when the limit is not reached.
 */
const INSERT_TIME_LIMIT = 'maxTimeMS';

/** Fields every write command of MongoDB 7.0 takes besides its own (internal ones included). */
const WRITE_COMMAND_KNOWN = ['let', 'collectionUUID', 'isTimeseriesNamespace', 'encryptionInformation'];
/** The write commands' fields but `let`, for those that pass it on to the engine. */
const WRITE_COMMAND_KNOWN_BUT_LET = WRITE_COMMAND_KNOWN.filter((field) => field !== 'let');

/**
 * Command -> its fields. A handler that starts reading a field moves it from `known` (or adds it)
 * to `passed` in the same change: a field not listed is refused. Every command of the front has
 * an entry (a test holds it).
 */
export const COMMAND_FIELDS: Readonly<Record<string, CommandFields>> = {
  hello: HELLO,
  isMaster: HELLO,
  ismaster: HELLO,
  ping: { passed: [] },
  buildInfo: { passed: [] },
  buildinfo: { passed: [] },
  getParameter: { passed: [], anyField: true },
  endSessions: { passed: [] },
  configureFailPoint: { passed: ['mode', 'data'] },
  find: {
    passed: [
      'filter',
      'projection',
      'sort',
      'skip',
      'limit',
      'batchSize',
      'singleBatch',
      'maxTimeMS',
      'collation',
      'let',
    ],
    // No cursor of the front times out; partial results come only from a sharded cluster;
    // the engine sorts without MongoDB's 100 MB limit (as 6.0 and later do by default);
    // MongoDB itself ignores oplogReplay since 4.4.
    noOp: ['noCursorTimeout', 'allowPartialResults', 'allowDiskUse', 'oplogReplay'],
    known: [
      'hint',
      'min',
      'max',
      'returnKey',
      'showRecordId',
      'tailable',
      'awaitData',
      'term',
      'readOnce',
      'allowSpeculativeMajorityRead',
      'ntoreturn',
      '$_requestResumeToken',
      '$_resumeAfter',
      'encryptionInformation',
    ],
    reads: true,
  },
  getMore: {
    passed: ['collection', 'batchSize'],
    // On a getMore, maxTimeMS is how long a tailable cursor awaits data: the front has none.
    known: ['term', 'lastKnownCommittedOpTime'],
  },
  killCursors: { passed: ['cursors'] },
  count: {
    passed: ['query', 'skip', 'limit', 'hint', 'maxTimeMS', 'collation'],
    // MongoDB reads and ignores `fields` on a count.
    noOp: ['fields'],
    known: ['encryptionInformation'],
    reads: true,
  },
  distinct: {
    passed: ['key', 'query', 'hint', 'maxTimeMS', 'collation'],
    known: ['sampleId', 'encryptionInformation'],
    reads: true,
  },
  aggregate: {
    passed: ['pipeline', 'cursor', 'let', 'hint', 'maxTimeMS', 'collation'],
    // No collection of the engine has a validator to bypass; sorts have no 100 MB limit.
    noOp: ['allowDiskUse', 'bypassDocumentValidation'],
    known: [
      'explain',
      'needsMerge',
      'fromMongos',
      'fromRouter',
      'exchange',
      'isMapReduceCommand',
      'collectionUUID',
      'encryptionInformation',
      '$_requestReshardingResumeToken',
      '$_generateV2ResumeTokens',
    ],
    reads: true,
    writes: true,
  },
  insert: {
    passed: ['documents', 'ordered'],
    noOp: ['bypassDocumentValidation', INSERT_TIME_LIMIT],
    known: WRITE_COMMAND_KNOWN,
    writes: true,
  },
  update: {
    passed: ['updates', 'ordered', 'let', 'maxTimeMS'],
    noOp: ['bypassDocumentValidation'],
    known: WRITE_COMMAND_KNOWN_BUT_LET,
    writes: true,
    statements: {
      field: 'updates',
      passed: ['q', 'u', 'upsert', 'multi', 'arrayFilters', 'hint', 'collation'],
      // `sort` is no field of an update statement before MongoDB 8.0: unknown here.
      known: ['c', 'upsertSupplied', 'sampleId', '$_allowShardKeyUpdatesWithoutFullShardKeyInQuery'],
    },
  },
  delete: {
    passed: ['deletes', 'ordered', 'let', 'maxTimeMS'],
    noOp: ['bypassDocumentValidation'],
    known: WRITE_COMMAND_KNOWN_BUT_LET,
    writes: true,
    statements: { field: 'deletes', passed: ['q', 'limit', 'hint', 'collation'], known: ['sampleId'] },
  },
  findAndModify: FIND_AND_MODIFY,
  findandmodify: FIND_AND_MODIFY,
  createIndexes: {
    passed: ['indexes'],
    known: ['commitQuorum', 'isTimeseriesNamespace', 'ignoreUnknownIndexOptions', 'collectionUUID'],
    writes: true,
  },
  // The front answers in one batch: a cursor's batch size changes no document a driver reads.
  listIndexes: { passed: [], noOp: ['cursor'], known: ['includeBuildUUIDs', 'includeIndexBuildInfo'] },
  dropIndexes: DROP_INDEXES,
  deleteIndexes: DROP_INDEXES,
  create: {
    passed: [],
    known: [
      'capped',
      'autoIndexId',
      'idIndex',
      'size',
      'max',
      'storageEngine',
      'validator',
      'validationLevel',
      'validationAction',
      'indexOptionDefaults',
      'viewOn',
      'pipeline',
      'collation',
      'recordPreImages',
      'changeStreamPreAndPostImages',
      'timeseries',
      'clusteredIndex',
      'expireAfterSeconds',
      'encryptedFields',
      'temp',
      'flags',
    ],
    writes: true,
  },
  drop: { passed: [], known: ['collectionUUID'], writes: true },
  listCollections: {
    passed: ['filter', 'nameOnly'],
    // Without access control every collection is authorized; the front answers in one batch.
    noOp: ['authorizedCollections', 'cursor'],
    known: ['includePendingDrops'],
  },
  dropDatabase: { passed: [], writes: true },
};
