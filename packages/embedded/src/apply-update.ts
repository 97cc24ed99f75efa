/**
 * Update operators and replacements for the embedded engine, through mingo's updater, with
 * MongoDB's checks around it: known operators only, no two operators on one path, `_id`
 * immutable, `$setOnInsert` applied only when an upsert inserts.
 */

import type { Document } from '@store/common';
import { isPlainObject, setOwn } from '@store/common';
import { EJSON, ObjectId } from 'bson';
// mingo's own updater: the `update` of mingo's index merges its full default context in front
// of the one given, so its stock `$regex` (backtracking) would win over the engine's (RE2).
import { checkArrayFilters } from './array-filters';
import type { CompiledFilter } from './compile-filter';
import { asBadValue, EmbeddedDbError } from './errors';
import { update as mingoUpdate, updateMany as mingoUpdateMany } from './mingo';
import { applyPipeline, type PipelineRun, pipelineRun, validatePipeline } from './update-pipeline';
import { cloneValue, idKey, toStored } from './values';

/** An operator update (`{ $set: {...} }`) or an update pipeline (`[{ $set: {...} }]`). */
export type Update = Record<string, Document> | Document[];

/** What an update is applied with besides the document: its `arrayFilters`, its `let` variables. */
export interface UpdateExtras {
  arrayFilters?: Document[];
  variables?: Document;
  /** A pipeline update's run, made on first use and kept for the operation: one `$$NOW` for every document. */
  pipeline?: PipelineRun;
}

const UPDATE_OPERATORS: ReadonlySet<string> = new Set([
  '$set',
  '$unset',
  '$inc',
  '$mul',
  '$min',
  '$max',
  '$rename',
  '$push',
  '$pull',
  '$pullAll',
  '$addToSet',
  '$pop',
  '$currentDate',
  '$bit',
  '$setOnInsert',
]);

const overlaps = (a: string, b: string): boolean => a === b || a.startsWith(`${b}.`) || b.startsWith(`${a}.`);

/**
 * Checks an update: a pipeline of allowed stages, or an update document (operators only, known
 * ones, no conflicting paths); and its `arrayFilters` against it.
 */
export function validateUpdate(update: unknown, extras: UpdateExtras = {}): asserts update is Update {
  if (Array.isArray(update)) validatePipeline(update);
  else validateOperators(update);
  checkArrayFilters(update, extras.arrayFilters);
}

function validateOperators(update: unknown): asserts update is Record<string, Document> {
  if (!isPlainObject(update) || Object.keys(update).length === 0) {
    throw new EmbeddedDbError('FailedToParse', 'Update document requires atomic operators');
  }
  const paths: string[] = [];
  for (const [operator, operand] of Object.entries(update)) {
    if (!UPDATE_OPERATORS.has(operator))
      throw new EmbeddedDbError('FailedToParse', `Unknown modifier: ${operator}`);
    if (!isPlainObject(operand))
      throw new EmbeddedDbError('FailedToParse', `Modifiers operate on fields: ${operator}`);
    const touched = Object.keys(operand);
    if (operator === '$rename') touched.push(...Object.values(operand).map(String));
    for (const path of touched) {
      const clash = paths.find((seen) => overlaps(seen, path));
      if (clash !== undefined) {
        throw new EmbeddedDbError(
          'ConflictingUpdateOperators',
          `Updating the path '${path}' would create a conflict`,
        );
      }
      paths.push(path);
    }
  }
}

function assertSameId(before: Document, after: Document): void {
  if (idKey(before._id) !== idKey(after._id)) throw immutableId();
}

const touchesId = (path: string): boolean => path === '_id' || path.startsWith('_id.');
const immutableId = (): EmbeddedDbError =>
  new EmbeddedDbError(
    'ImmutableField',
    "Performing an update on the path '_id' would modify the immutable field '_id'",
  );

/** An existing document's `_id` may only be `$set` to the value it already has (a no-op, dropped here). */
function withoutIdNoOp(doc: Document, modifier: Record<string, Document>): Record<string, Document> {
  const out: Record<string, Document> = {};
  for (const [operator, operand] of Object.entries(modifier)) {
    const kept = Object.entries(operand).filter(([path, value]) => {
      if (!touchesId(path) && !(operator === '$rename' && touchesId(String(value)))) return true;
      if (operator === '$set' && path === '_id' && idKey(value) === idKey(doc._id)) return false;
      throw immutableId();
    });
    if (kept.length > 0) out[operator] = Object.fromEntries(kept);
  }
  return out;
}

/** Operators that create the fields they name (`$unset`, `$pull`, `$pop` on a missing path are no-ops). */
const CREATING_OPERATORS: ReadonlySet<string> = new Set([
  '$set',
  '$inc',
  '$mul',
  '$min',
  '$max',
  '$push',
  '$addToSet',
  '$currentDate',
  '$bit',
  '$setOnInsert',
]);

/**
 * Like MongoDB, refuses (code 28 PathNotViable) a dotted path that would create a field inside a
 * value that cannot hold one: a scalar (null included), or an array addressed by a non-numeric segment.
 */
function assertPathsViable(doc: Document, modifier: Record<string, Document>): void {
  for (const [operator, operand] of Object.entries(modifier)) {
    const paths = operator === '$rename' ? Object.values(operand).map(String) : Object.keys(operand);
    if (operator !== '$rename' && !CREATING_OPERATORS.has(operator)) continue;
    for (const path of paths) {
      let cursor: unknown = doc;
      for (const segment of path.split('.')) {
        if (segment.startsWith('$') || cursor === undefined) break;
        const holds = isPlainObject(cursor) || (Array.isArray(cursor) && /^\d+$/.test(segment));
        if (!holds) throw new EmbeddedDbError('PathNotViable', `Cannot create field in element at '${path}'`);
        cursor = (cursor as Record<string, unknown>)[segment];
      }
    }
  }
}

const ARRAY_UPDATE = /^\$\[[^\]]*\]$/;

/**
 * Like MongoDB, refuses (BadValue) an update through `$[]` or `$[<identifier>]` whose array is
 * missing ("must exist", an upsert's new document included) or not an array: checked down to the
 * first such segment of each path, the part every document has one answer for.
 */
function assertArraysExist(doc: Document, modifier: Record<string, Document>): void {
  for (const operand of Object.values(modifier)) {
    for (const path of Object.keys(operand)) {
      const segments = path.split('.');
      const at = segments.findIndex((segment) => ARRAY_UPDATE.test(segment));
      if (at <= 0) continue;
      let cursor: unknown = doc;
      for (const segment of segments.slice(0, at)) {
        cursor = isPlainObject(cursor) || Array.isArray(cursor) ? (cursor as Document)[segment] : undefined;
      }
      const field = segments.slice(0, at).join('.');
      if (cursor === undefined) {
        throw new EmbeddedDbError(
          'BadValue',
          `The path '${field}' must exist in the document in order to apply array updates.`,
        );
      }
      if (!Array.isArray(cursor)) {
        const element = `${segments[at - 1]}: ${EJSON.stringify(cursor, { relaxed: true })}`;
        throw new EmbeddedDbError('BadValue', `Cannot apply array updates to non-array element ${element}`);
      }
    }
  }
}

/** Each operator's paths in lexicographic order: MongoDB applies them (and so appends new fields) in that order. */
function lexicographic(modifier: Record<string, Document>): Record<string, Document> {
  const out: Record<string, Document> = {};
  for (const [operator, operand] of Object.entries(modifier)) {
    const paths = Object.keys(operand);
    if (paths.length < 2) out[operator] = operand;
    else out[operator] = Object.fromEntries(paths.sort().map((path) => [path, operand[path]]));
  }
  return out;
}

/** The operators {@link topLevelUpdate} applies itself. */
const TOP_LEVEL_OPERATORS: ReadonlySet<string> = new Set(['$set', '$unset', '$inc']);

/**
 * `doc` (not yet stored) after `modifier` when it only `$set`s, `$unset`s or `$inc`s top-level
 * fields other than `_id` (numbers by numbers, for `$inc`): what a store's `PATCH` sends, applied
 * without mingo's updater, whose set-up per call (its operator tables copied and extended) costs
 * far more than the update. Fields change in place and new ones are appended in the modifier's
 * order, as mingo (and MongoDB) add them. Undefined for any other update: mingo applies it.
 */
function topLevelUpdate(doc: Document, modifier: Record<string, Document>): Document | undefined {
  for (const operator in modifier) {
    if (!TOP_LEVEL_OPERATORS.has(operator)) return undefined;
    const operand = modifier[operator] as Document;
    for (const path in operand) {
      if (path.includes('.') || path.startsWith('$') || path === '_id' || path === '__proto__')
        return undefined;
      if (operator !== '$inc') continue;
      const current = doc[path];
      if (typeof operand[path] !== 'number' || (current !== undefined && typeof current !== 'number')) {
        return undefined;
      }
    }
  }
  // Stored documents are never changed in place; toStored copies every nested value.
  const target: Document = { ...doc };
  for (const operator in modifier) {
    const operand = modifier[operator] as Document;
    for (const path in operand) {
      if (operator === '$set') target[path] = operand[path];
      else if (operator === '$unset') delete target[path];
      else target[path] = ((target[path] as number | undefined) ?? 0) + (operand[path] as number);
    }
  }
  return target;
}

/** `doc` after `update` (validated), as a new stored document; `inserting` applies `$setOnInsert`. */
export function applyUpdate(
  doc: Document,
  update: Update,
  filter: CompiledFilter,
  inserting: boolean,
  extras: UpdateExtras = {},
): Document {
  if (Array.isArray(update)) {
    extras.pipeline ??= pipelineRun(update, extras.variables);
    return applyPipeline(doc, extras.pipeline, inserting);
  }
  const { $setOnInsert, ...requested } = update;
  const modifier = lexicographic(inserting ? requested : withoutIdNoOp(doc, requested));
  if (inserting && $setOnInsert)
    modifier.$set = lexicographic({ $set: { ...modifier.$set, ...$setOnInsert } }).$set as Document;
  assertPathsViable(doc, modifier);
  const simple = extras.arrayFilters === undefined ? topLevelUpdate(doc, modifier) : undefined;
  if (simple !== undefined) return toStored(simple);
  assertArraysExist(doc, modifier);
  const target = cloneValue(doc);
  if (Object.keys(modifier).length > 0) {
    // The condition resolves positional `$` paths; a document an upsert inserts need not match it.
    const condition = inserting ? {} : filter.condition;
    asBadValue('update', () =>
      mingoUpdate(target, modifier, extras.arrayFilters ?? [], condition, {
        cloneMode: 'deep',
        queryOptions: { context: filter.context, variables: extras.variables },
      }),
    );
  }
  const stored = toStored(target);
  if (!inserting) assertSameId(doc, stored);
  return stored;
}

/** Whether an operator's path (or a `$rename` target) names `_id` or a positional element (`$`, `$[]`). */
const needsOwnDocument = (update: Record<string, Document>): boolean =>
  Object.entries(update).some(([operator, operand]) =>
    [...Object.keys(operand), ...(operator === '$rename' ? Object.values(operand).map(String) : [])].some(
      (path) => touchesId(path) || path.split('.').some((segment) => segment.startsWith('$')),
    ),
  );

/**
 * `docs` after `update` (validated), each as `applyUpdate` makes it for an existing document,
 * with one call of mingo's updater for them all (its set-up costs far more than one document's
 * update). An update that touches `_id` or a positional element is applied one document at a time.
 */
export function applyUpdateToAll(
  docs: readonly Document[],
  update: Update,
  filter: CompiledFilter,
  extras: UpdateExtras = {},
): Document[] {
  if (Array.isArray(update) || docs.length < 2 || needsOwnDocument(update) || extras.variables) {
    return docs.map((doc) => applyUpdate(doc, update, filter, false, extras));
  }
  const { $setOnInsert, ...requested } = update;
  // Without an `_id` path, what is applied does not depend on the document.
  const modifier = lexicographic(withoutIdNoOp(docs[0] as Document, requested));
  for (const doc of docs) assertPathsViable(doc, modifier);
  const simple = docs.map((doc) => topLevelUpdate(doc, modifier));
  if (simple.every((each) => each !== undefined)) return simple.map((each) => toStored(each as Document));
  const targets = docs.map(cloneValue);
  if (Object.keys(modifier).length > 0) {
    asBadValue('update', () =>
      mingoUpdateMany(
        targets,
        {},
        modifier,
        { arrayFilters: [], cloneMode: 'deep' },
        { context: filter.context },
      ),
    );
  }
  return targets.map(toStored);
}

/** `replacement` as the new version of `doc` (which keeps its `_id`). */
export function applyReplacement(doc: Document, replacement: unknown): Document {
  if (!isPlainObject(replacement) || Object.keys(replacement).some((key) => key.startsWith('$'))) {
    throw new EmbeddedDbError('BadValue', 'Replacement document must not contain atomic operators');
  }
  const next: Document = { _id: doc._id };
  for (const [key, value] of Object.entries(replacement)) if (key !== '_id') setOwn(next, key, value);
  if ('_id' in replacement && replacement._id !== undefined) assertSameId(doc, { _id: replacement._id });
  return toStored(next);
}

function setPath(target: Document, path: string, value: unknown): void {
  const segments = path.split('.');
  const last = segments.pop() ?? path;
  let cursor = target;
  for (const segment of segments) {
    if (!isPlainObject(cursor[segment])) setOwn(cursor, segment, {});
    cursor = cursor[segment] as Document;
  }
  setOwn(cursor, last, cloneValue(value));
}

function collectEqualities(filter: Document, seed: Document): void {
  for (const [key, value] of Object.entries(filter)) {
    if (key === '$and' && Array.isArray(value)) {
      for (const clause of value) if (isPlainObject(clause)) collectEqualities(clause, seed);
    } else if (!key.startsWith('$')) {
      const operators = isPlainObject(value) && Object.keys(value).some((k) => k.startsWith('$'));
      if (!operators) setPath(seed, key, value);
      else if ('$eq' in (value as Document)) setPath(seed, key, (value as Document).$eq);
    }
  }
}

/** The fields an upsert starts from: the filter's equality conditions (`_id` only if the filter pins it). */
export function upsertSeed(filter: Document): Document {
  const fields: Document = {};
  collectEqualities(filter, fields);
  return fields;
}

/**
 * `doc` with `_id` first (as MongoDB stores it), generating an ObjectId like the driver when it
 * is missing; a `null` `_id` is kept, as MongoDB keeps it.
 */
export function withIdFirst(doc: Document): Document {
  for (const key in doc) {
    // Already in order (the common case): returned as is, callers copy it (`toStored`, `cloneValue`).
    if (key === '_id' && doc._id !== undefined && Object.hasOwn(doc, '_id')) return doc;
    break;
  }
  const { _id, ...rest } = doc;
  return { _id: _id === undefined ? new ObjectId() : _id, ...rest };
}
