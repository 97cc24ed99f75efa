/**
 * One spec test on one tier: its entities created, its initial data seeded, its operations run
 * in order with their `expectResult` / `expectError` checked, then its `outcome` (the collections'
 * contents). Event assertions (`expectEvents`) are not checked: they pin what a driver sends, not
 * what the engine answers.
 *
 * An error the engine raises to refuse a feature by name (NotImplemented 238, CommandNotFound 59,
 * CommandNotSupported 115) makes the test `unsupported`, also where the test expected an error;
 * anything else that differs is a `fail`.
 */
import { mismatch } from './match';
import { type Entity, RunnerGap, runOperation } from './operations';
import type { SpecTest } from './spec-files';
import { type ClientEntity, Inexpressible, type Tier } from './tiers';

type Document = Record<string, unknown>;

/** What a test gave on a tier. */
export type Outcome =
  | { status: 'pass' }
  | { status: 'fail'; detail: string }
  | { status: 'unsupported'; detail: string }
  | { status: 'inexpressible'; detail: string };

/** The codes with which the engine refuses a feature it does not implement, naming it. */
const REFUSAL_CODES: ReadonlySet<number> = new Set([238, 59, 115]);

interface Operation {
  name: string;
  object: string;
  arguments?: Document;
  expectResult?: unknown;
  expectError?: ExpectedError;
  ignoreResultAndError?: boolean;
}

interface ExpectedError {
  isError?: boolean;
  isClientError?: boolean;
  errorContains?: string;
  errorCode?: number;
  errorCodeName?: string;
  errorResponse?: Document;
  expectResult?: unknown;
  writeErrors?: Document;
  writeConcernErrors?: unknown[];
}

interface CollectionData {
  databaseName: string;
  collectionName: string;
  documents: Document[];
  createOptions?: Document;
}

/** The code of a server error (a bulk write's first write error's), if it has one. */
function codeOf(error: unknown): number | undefined {
  const { code, writeErrors, errorResponse } = (error ?? {}) as {
    code?: unknown;
    writeErrors?: unknown;
    errorResponse?: { code?: unknown };
  };
  if (typeof code === 'number') return code;
  const first = Array.isArray(writeErrors) ? writeErrors[0] : writeErrors;
  const inner = (first as { code?: unknown; err?: { code?: unknown } } | undefined)?.code;
  if (typeof inner === 'number') return inner;
  return typeof errorResponse?.code === 'number' ? errorResponse.code : undefined;
}

const messageOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));

/** A refusal by name, as `unsupported`'s detail: its code and message. */
function refusal(error: unknown): string | undefined {
  const code = codeOf(error);
  return code !== undefined && REFUSAL_CODES.has(code) ? `${code}: ${messageOf(error)}` : undefined;
}

/** Why `error` does not match `expected`, or undefined when it does. */
function errorMismatch(expected: ExpectedError, error: unknown): string | undefined {
  const code = codeOf(error);
  const server = code !== undefined;
  const message = messageOf(error);
  if (expected.isClientError === true && server)
    return `expected a client error, got server error ${code}: ${message}`;
  if (expected.isClientError === false && !server) return `expected a server error, got: ${message}`;
  if (
    expected.errorContains !== undefined &&
    !message.toLowerCase().includes(expected.errorContains.toLowerCase())
  ) {
    return `expected an error containing "${expected.errorContains}", got: ${message}`;
  }
  if (expected.errorCode !== undefined && code !== expected.errorCode) {
    return `expected error code ${expected.errorCode}, got ${code ?? 'none'}: ${message}`;
  }
  if (expected.errorCodeName !== undefined) {
    const name = (error as { codeName?: unknown }).codeName;
    if (String(name).toLowerCase() !== expected.errorCodeName.toLowerCase()) {
      return `expected error ${expected.errorCodeName}, got ${String(name)}: ${message}`;
    }
  }
  if (expected.errorResponse !== undefined) {
    const response = (error as { errorResponse?: unknown }).errorResponse ?? error;
    const found = mismatch(expected.errorResponse, response, true, '(errorResponse)');
    if (found) return found;
  }
  if (expected.expectResult !== undefined) {
    const partial =
      (error as { result?: unknown; partialResult?: unknown }).result ??
      (error as { partialResult?: unknown }).partialResult;
    const found = mismatch(expected.expectResult, partial, true, '(partial result)');
    if (found) return found;
  }
  if (expected.writeErrors !== undefined || expected.writeConcernErrors !== undefined) {
    throw new RunnerGap('writeErrors / writeConcernErrors of a client bulk write');
  }
  return undefined;
}

/** Operations whose result is an iterable of root-level documents. */
const ITERABLE = new Set(['find', 'aggregate']);

/** Matches an operation's result: each document of an iterable one (`find`, `aggregate`) as a root-level document. */
function resultMismatch(operation: Operation, result: unknown): string | undefined {
  const expected = operation.expectResult;
  if (!ITERABLE.has(operation.name) || !Array.isArray(expected)) return mismatch(expected, result, true);
  if (!Array.isArray(result) || result.length !== expected.length) {
    return `expected ${expected.length} documents, got ${JSON.stringify(result)}`;
  }
  for (const [index, document] of expected.entries()) {
    const wrong = mismatch(document, result[index], true, `(result)[${index}]`);
    if (wrong) return wrong;
  }
  return undefined;
}

/** Creates the test's entities on the tier. */
async function createEntities(
  definitions: Document[],
  run: Awaited<ReturnType<Tier['begin']>>,
): Promise<Map<string, Entity>> {
  const entities = new Map<string, Entity>();
  for (const definition of definitions) {
    const [kind, spec] = Object.entries(definition)[0] as [string, Document];
    if (kind === 'client') {
      entities.set(String(spec.id), {
        kind: 'client',
        value: await run.client(spec as unknown as ClientEntity),
      });
    } else if (kind === 'database') {
      const client = entities.get(String(spec.client));
      const options = spec.databaseOptions as Document | undefined;
      entities.set(String(spec.id), {
        kind: 'database',
        value: run.database(client?.value, String(spec.databaseName), options),
      });
    } else if (kind === 'collection') {
      const database = entities.get(String(spec.database));
      const options = spec.collectionOptions as Document | undefined;
      entities.set(String(spec.id), {
        kind: 'collection',
        value: run.collection(database?.value, String(spec.collectionName), options),
      });
    } else {
      throw new RunnerGap(`entity ${kind}`);
    }
  }
  return entities;
}

/** Runs each operation; the first assertion that does not hold, as an outcome. */
async function runOperations(
  operations: Operation[],
  entities: Map<string, Entity>,
  run: Awaited<ReturnType<Tier['begin']>>,
): Promise<Outcome | undefined> {
  for (const [index, operation] of operations.entries()) {
    const at = `operation ${index + 1} (${operation.name})`;
    let result: unknown;
    try {
      result = await runOperation(operation, entities, run);
    } catch (error) {
      if (error instanceof Inexpressible || error instanceof RunnerGap) throw error;
      const refused = refusal(error);
      if (refused) return { status: 'unsupported', detail: `${at}: ${refused}` };
      if (operation.ignoreResultAndError) continue;
      if (!operation.expectError)
        return { status: 'fail', detail: `${at}: unexpected error: ${messageOf(error)}` };
      const wrong = errorMismatch(operation.expectError, error);
      if (wrong) return { status: 'fail', detail: `${at}: ${wrong}` };
      continue;
    }
    if (operation.ignoreResultAndError) continue;
    if (operation.expectError)
      return { status: 'fail', detail: `${at}: expected an error, got ${JSON.stringify(result)}` };
    if (operation.expectResult !== undefined) {
      const wrong = resultMismatch(operation, result);
      if (wrong) return { status: 'fail', detail: `${at}: ${wrong}` };
    }
  }
  return undefined;
}

/**
 * Tests the official Node driver cannot pass against any server, and skips in its own CRUD suite:
 * it replaces a `null` `_id` with a new ObjectId before sending (NODE-6468), so the server never
 * sees the `null` these tests insert. They run on the engine's own API, which keeps `null`.
 */
const NODE_DRIVER_GAPS: Readonly<Record<string, string>> = {
  'inserting _id with type null via insertOne': 'the Node driver replaces a null _id (NODE-6468)',
  'inserting _id with type null via insertMany': 'the Node driver replaces a null _id (NODE-6468)',
  'inserting _id with type null via bulkWrite': 'the Node driver replaces a null _id (NODE-6468)',
};

/** Runs `test` of `file` (parsed for `tier` as `parsed`) on `tier`. */
export async function runSpecTest(tier: Tier, parsed: Document, testIndex: number): Promise<Outcome> {
  const { description } = (parsed.tests as Document[])[testIndex] as { description: string };
  const gap =
    tier.driver && Object.hasOwn(NODE_DRIVER_GAPS, description) ? NODE_DRIVER_GAPS[description] : undefined;
  if (gap !== undefined) return { status: 'inexpressible', detail: gap };
  const run = await tier.begin();
  try {
    const test = (parsed.tests as Document[])[testIndex] as unknown as SpecTest & { operations: Operation[] };
    const initialData = (parsed.initialData ?? []) as CollectionData[];
    const databases = new Set(initialData.map((data) => data.databaseName));
    for (const definition of (parsed.createEntities ?? []) as Document[]) {
      const database = definition.database as Document | undefined;
      if (database) databases.add(String(database.databaseName));
    }
    await run.reset(databases);
    for (const data of initialData) {
      await run.seed(data.databaseName, data.collectionName, data.documents, data.createOptions);
    }
    const entities = await createEntities((parsed.createEntities ?? []) as Document[], run);
    const failed = await runOperations(test.operations, entities, run);
    if (failed) return failed;
    for (const expected of (test.outcome ?? []) as CollectionData[]) {
      const actual = await run.contents(expected.databaseName, expected.collectionName);
      const wrong = mismatch(
        expected.documents,
        actual,
        false,
        `(${expected.collectionName} after the test)`,
      );
      if (wrong) return { status: 'fail', detail: `outcome: ${wrong}` };
    }
    return { status: 'pass' };
  } catch (error) {
    if (error instanceof Inexpressible) return { status: 'inexpressible', detail: error.message };
    if (error instanceof RunnerGap) return { status: 'fail', detail: `runner gap: ${error.message}` };
    return { status: 'fail', detail: `unexpected error: ${messageOf(error)}` };
  } finally {
    await run.end();
  }
}
