/**
 * Errors of the embedded engine, shaped like the driver's `MongoServerError`: a numeric
 * `code` and a `codeName` taken from MongoDB's own table, so callers handle both engines
 * with one check (`error.code === 11000`). One code is the engine's own (a limit MongoDB
 * does not have): `ExceededExaminedLimit`.
 */

/**
 * The engine's own code for an operation past its `maxExamined`: outside MongoDB's table, whose
 * named codes stay below 100,000 and whose assertion location ids (a ticket number times 100,
 * plus a count) below 100,000,000, so no error of a real server is ever taken for it.
 */
const EXCEEDED_EXAMINED_LIMIT = 100_000_001;

/** Error codes the embedded engine raises, by code name: MongoDB's, and one of its own. */
export const EMBEDDED_ERROR_CODES = {
  BadValue: 2,
  PathNotViable: 28,
  FailedToParse: 9,
  NoSuchKey: 4,
  TypeMismatch: 14,
  IndexNotFound: 27,
  ConflictingUpdateOperators: 40,
  MaxTimeMSExpired: 50,
  DollarPrefixedFieldName: 52,
  InvalidIdField: 53,
  ImmutableField: 66,
  InvalidOptions: 72,
  CannotCreateIndex: 67,
  InvalidNamespace: 73,
  IndexOptionsConflict: 85,
  IndexKeySpecsConflict: 86,
  IncompatibleCollationVersion: 161,
  /** An option or form MongoDB 7.0 does not take, or the engine does not implement: refused, never ignored. */
  NotImplemented: 238,
  NoQueryExecutionPlans: 291,
  /** A pipeline stage that is not an object of exactly one field. */
  /** A `let` variable named against MongoDB's rule (a lowercase or non-ASCII letter first). */
  Location16867: 16867,
  Location40323: 40323,
  /** A pipeline stage name MongoDB does not know. */
  Location40324: 40324,
  DuplicateKey: 11000,
  InterruptedAtShutdown: 11600,
  /** A durable database's disk (or quota) is full: the write was refused, reads still answer. */
  OutOfDiskSpace: 14031,
  ExceededExaminedLimit: EXCEEDED_EXAMINED_LIMIT,
} as const satisfies Record<string, number>;

/** A MongoDB code name the embedded engine uses. */
export type EmbeddedErrorCodeName = keyof typeof EMBEDDED_ERROR_CODES;

/** Extra fields of a duplicate-key error, as the driver reports them. */
export interface DuplicateKeyInfo {
  keyPattern: Record<string, unknown>;
  keyValue: Record<string, unknown>;
}

/** An error of the embedded engine: `code` and `codeName` as MongoDB would report them. */
export class EmbeddedDbError extends Error {
  override readonly name = 'EmbeddedDbError';
  /** MongoDB's numeric error code (11000 for a duplicate key); the engine's own for `ExceededExaminedLimit`. */
  readonly code: number;
  /** MongoDB's name for `code`, e.g. `DuplicateKey`. */
  readonly codeName: EmbeddedErrorCodeName;
  /** Duplicate key only: the index key pattern that was violated. */
  readonly keyPattern?: Record<string, unknown>;
  /** Duplicate key only: the key value that is already taken. */
  readonly keyValue?: Record<string, unknown>;

  constructor(codeName: EmbeddedErrorCodeName, message: string, duplicate?: DuplicateKeyInfo) {
    super(message);
    this.codeName = codeName;
    this.code = EMBEDDED_ERROR_CODES[codeName];
    if (duplicate) {
      this.keyPattern = duplicate.keyPattern;
      this.keyValue = duplicate.keyValue;
    }
  }
}

/** `error` as the engine reports it: its own errors as they are, any foreign one (mingo, bson, turf) as a `BadValue`. */
export function toBadValue(what: string, error: unknown): EmbeddedDbError {
  if (error instanceof EmbeddedDbError) return error;
  const detail = error instanceof Error ? error.message : String(error);
  return new EmbeddedDbError('BadValue', `invalid ${what}: ${detail}`);
}

/** Runs `fn`, turning any foreign error (mingo, bson, turf) into a `BadValue` {@link EmbeddedDbError}. */
export function asBadValue<T>(what: string, fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    throw toBadValue(what, error);
  }
}

/**
 * A call the official driver refuses before sending anything (its `MongoInvalidArgumentError`):
 * an update without operators, a replacement with them, an empty batch. Like the driver's, it
 * has no `code`: no server answered it.
 */
export class EmbeddedArgumentError extends Error {
  override readonly name = 'EmbeddedArgumentError';
}
