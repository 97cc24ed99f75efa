/**
 * `$group`: its accumulators checked, documents grouped by their `_id` (BSON equality or the
 * collation's), and a count's `$group` recognized so it can be answered without reading.
 */

import type { Document } from '@store/common';
import { isPlainObject, setOwn } from '@store/common';
import { collatedGroupKeys } from '../collated-expressions';
import type { Collation } from '../collation';
import { EmbeddedDbError } from '../errors';
import { evalExpr, OpType } from '../mingo';
import { idKey } from '../values';
import { ACCUMULATORS, type Accumulate, KNOWN_ACCUMULATORS } from './accumulators';
import { computing, notImplemented, type Run } from './pipeline-run';

/** A group key's value as MongoDB keeps it: missing fields of sub-documents dropped, missing as null. */
function groupValue(value: unknown): unknown {
  if (value === undefined) return null;
  if (Array.isArray(value)) return value.map((item) => (item === undefined ? null : groupValue(item)));
  if (!isPlainObject(value)) return value;
  const out: Document = {};
  for (const [key, inner] of Object.entries(value))
    if (inner !== undefined) setOwn(out, key, groupValue(inner));
  return out;
}

/** The accumulators of a `$group` specification, checked: one known operator each. */
export function accumulatorsOf(spec: Document): Array<[string, string, unknown]> {
  const out: Array<[string, string, unknown]> = [];
  for (const [field, value] of Object.entries(spec)) {
    if (field === '_id') continue;
    if (field.includes('.')) {
      throw new EmbeddedDbError(
        'BadValue',
        `the group aggregate field name '${field}' cannot be used because $group's field names cannot contain '.'`,
      );
    }
    if (!isPlainObject(value) || Object.keys(value).length !== 1) {
      throw new EmbeddedDbError('BadValue', `The field '${field}' must be an accumulator object`);
    }
    const [operator] = Object.keys(value) as [string];
    if (!KNOWN_ACCUMULATORS.has(operator)) {
      throw new EmbeddedDbError('BadValue', `unknown group operator '${operator}'`);
    }
    if (!ACCUMULATORS.has(operator)) throw notImplemented(`the accumulator ${operator}`);
    if (operator === '$count' && !(isPlainObject(value.$count) && Object.keys(value.$count).length === 0)) {
      throw new EmbeddedDbError('BadValue', '$count takes no arguments, i.e. $count:{}');
    }
    out.push([field, operator, value[operator]]);
  }
  return out;
}

/** Whether a `$group` `_id` is a constant (no field path, variable or operator): every document in one group. */
const isConstant = (value: unknown): boolean =>
  value === null ||
  typeof value === 'number' ||
  typeof value === 'boolean' ||
  (typeof value === 'string' && !value.startsWith('$'));

/**
 * A count's `$group`: a constant `_id`, each accumulator a `$sum` of a number or a `$count`
 * (what the driver's `countDocuments` sends); the amount each document adds, by field. Undefined
 * for any other `$group`.
 */
export function countingGroup(spec: unknown): { id: unknown; fields: Array<[string, number]> } | undefined {
  if (!isPlainObject(spec) || !Object.hasOwn(spec, '_id') || !isConstant(spec._id)) return undefined;
  const fields: Array<[string, number]> = [];
  for (const [field, value] of Object.entries(spec)) {
    if (field === '_id') continue;
    if (!isPlainObject(value) || Object.keys(value).length !== 1 || field.includes('.')) return undefined;
    if (typeof value.$sum === 'number') fields.push([field, value.$sum]);
    else if (isPlainObject(value.$count) && Object.keys(value.$count).length === 0) fields.push([field, 1]);
    else return undefined;
  }
  return { id: spec._id, fields };
}

/** The answer of a counting `$group` over `count` documents: none when there are none. */
export function countedGroup(
  group: NonNullable<ReturnType<typeof countingGroup>>,
  count: number,
): Document[] {
  if (count === 0) return [];
  const out: Document = { _id: group.id };
  for (const [field, each] of group.fields) setOwn(out, field, each * count);
  return [out];
}

type Groups = Map<string, { id: unknown; docs: Document[] }>;

/** The group key value `idExpr` gives `doc`. */
const groupIdOf = (doc: Document, idExpr: unknown, run: Run): unknown =>
  groupValue(computing('$group', () => evalExpr(doc, idExpr as never, run.options)));

/** `docs` grouped by their `idExpr` values (BSON equality), in first-seen order. */
async function binaryGroups(docs: Document[], idExpr: unknown, run: Run): Promise<Groups> {
  const groups: Groups = new Map();
  let at = 0;
  while (at < docs.length) {
    const doc = docs[at++] as Document;
    const id = groupIdOf(doc, idExpr, run);
    const key = idKey(id);
    const group = groups.get(key);
    if (group) group.docs.push(doc);
    else groups.set(key, { id, docs: [doc] });
    if (run.work.tick() && at < docs.length) await run.work.pause();
  }
  return groups;
}

/** `docs` grouped by their `idExpr` values equal under `collation` (the first seen is the group's `_id`), in first-seen order. */
async function collatedGroups(
  docs: Document[],
  idExpr: unknown,
  run: Run,
  collation: Collation,
): Promise<Groups> {
  const ids: unknown[] = [];
  let at = 0;
  while (at < docs.length) {
    ids.push(groupIdOf(docs[at++] as Document, idExpr, run));
    if (run.work.tick() && at < docs.length) await run.work.pause();
  }
  const keys = await collatedGroupKeys(ids, collation, run.work);
  const groups: Groups = new Map();
  for (let i = 0; i < docs.length; i++) {
    const key = keys[i] as string;
    const group = groups.get(key);
    if (group) group.docs.push(docs[i] as Document);
    else groups.set(key, { id: ids[i], docs: [docs[i] as Document] });
    if (run.work.tick() && i + 1 < docs.length) await run.work.pause();
  }
  return groups;
}

/**
 * `$group`: documents grouped by their `_id` expression (BSON equality, or the collation's),
 * accumulators computed per group, in first-seen order.
 */
export async function groupStage(docs: Document[], spec: unknown, run: Run): Promise<Document[]> {
  if (!isPlainObject(spec) || !Object.hasOwn(spec, '_id')) {
    throw new EmbeddedDbError('BadValue', 'a group specification must include an _id');
  }
  const accumulators = accumulatorsOf(spec);
  const counting = countingGroup(spec);
  if (counting) return countedGroup(counting, docs.length);
  const groups = run.collation
    ? await collatedGroups(docs, spec._id, run, run.collation)
    : await binaryGroups(docs, spec._id, run);
  const out: Document[] = [];
  for (const { id, docs: members } of groups.values()) {
    const result: Document = { _id: id };
    for (const [field, operator, argument] of accumulators) {
      const accumulate = run.context.getOperator(OpType.ACCUMULATOR, operator) as unknown as Accumulate;
      // A null argument is the value null for each document (null alone means none to mingo).
      const given = argument === null ? { $literal: null } : argument;
      const value = computing('$group', () => accumulate(members, given, run.options));
      setOwn(result, field, value === undefined ? null : value);
    }
    out.push(result);
    if (run.work.due()) await run.work.pause();
  }
  return out;
}
