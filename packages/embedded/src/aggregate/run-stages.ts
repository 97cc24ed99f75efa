/**
 * The stage table: stages run one after the other over documents in hand, and the stages that
 * run sub-pipelines through it (`$facet`, `$lookup`, with `$documents`).
 */

import type { Document } from '@store/common';
import { isPlainObject, setOwn } from '@store/common';
import { EmbeddedDbError } from '../errors';
import { evalExpr } from '../mingo';
import { valuesAtPath } from '../paths';
import { sortDocumentsInSlices } from '../sort-in-slices';
import { checkVariableName } from '../write-options';
import { addFieldsStage, mingoStage } from './computed-stages';
import { groupStage } from './group-stage';
import { bindFilter } from './let-variables';
import { checkMatch, compileLoose, matchStage } from './match-stage';
import { computeOptions } from './mingo-context';
import { computing, notImplemented, type Run } from './pipeline-run';
import { checkStageName, stagesOf } from './pipeline-stages';
import { countArgument, countStage, sortedCount, sortSpec } from './sort-and-page';
import { unwindStage, withPath } from './unwind-stage';

/** Stages a `$facet` sub-pipeline may not hold. */
const NOT_IN_FACET: ReadonlySet<string> = new Set([
  '$facet',
  '$out',
  '$merge',
  '$documents',
  '$collStats',
  '$indexStats',
  '$geoNear',
  '$changeStream',
  '$currentOp',
  '$listLocalSessions',
  '$listSessions',
  '$planCacheStats',
  '$search',
  '$searchMeta',
  '$vectorSearch',
  '$unionWith',
]);

async function facetStage(docs: Document[], spec: unknown, run: Run): Promise<Document[]> {
  if (!isPlainObject(spec) || Object.keys(spec).length === 0) {
    throw new EmbeddedDbError('BadValue', 'the $facet specification must be a non-empty object');
  }
  const out: Document = {};
  for (const [field, pipeline] of Object.entries(spec)) {
    const stages = stagesOf(pipeline);
    if (stages.length === 0)
      throw new EmbeddedDbError('BadValue', `sub-pipeline in $facet stage cannot be empty`);
    for (const [name] of stages) {
      checkStageName(name);
      if (NOT_IN_FACET.has(name))
        throw new EmbeddedDbError('BadValue', `${name} is not allowed to be used within a $facet stage`);
    }
    setOwn(out, field, await runStages(docs, stages, run));
  }
  return [out];
}

/** The values `$lookup` matches a document's `localField` by: each value found (arrays unwound), null when none. */
function localValues(doc: Document, localField: string): unknown[] {
  const values = valuesAtPath(doc, localField, true);
  if (values.length === 0) return [null];
  for (const value of values) {
    if (value instanceof RegExp || (value as { _bsontype?: unknown } | null)?._bsontype === 'BSONRegExp') {
      throw notImplemented('$lookup on a localField holding a regular expression');
    }
  }
  return values;
}

/** A `$lookup` specification, checked. */
function lookupSpec(spec: unknown): {
  from: string | undefined;
  as: string;
  equality: { localField: string; foreignField: string } | undefined;
  let: Document | undefined;
  pipeline: Array<[string, unknown]> | undefined;
} {
  if (!isPlainObject(spec))
    throw new EmbeddedDbError('BadValue', 'the $lookup specification must be an object');
  for (const key of Object.keys(spec)) {
    if (!['from', 'as', 'localField', 'foreignField', 'let', 'pipeline'].includes(key)) {
      throw new EmbeddedDbError('BadValue', `unknown argument to $lookup: ${key}`);
    }
  }
  const { from, as, localField, foreignField } = spec;
  if (isPlainObject(from)) throw notImplemented('$lookup from another database');
  if (from !== undefined && (typeof from !== 'string' || from === '')) {
    throw new EmbeddedDbError('BadValue', '$lookup from must be a collection name');
  }
  if (typeof as !== 'string' || as === '' || as.startsWith('$')) {
    throw new EmbeddedDbError('BadValue', '$lookup requires an as field naming where to put the matches');
  }
  if ((localField === undefined) !== (foreignField === undefined)) {
    throw new EmbeddedDbError('BadValue', '$lookup requires both or neither of localField and foreignField');
  }
  if (localField !== undefined && (typeof localField !== 'string' || typeof foreignField !== 'string')) {
    throw new EmbeddedDbError('BadValue', '$lookup localField and foreignField must be strings');
  }
  if (spec.let !== undefined && !isPlainObject(spec.let))
    throw new EmbeddedDbError('BadValue', '$lookup let must be an object');
  const pipeline = spec.pipeline === undefined ? undefined : stagesOf(spec.pipeline);
  if (localField === undefined && pipeline === undefined) {
    throw new EmbeddedDbError(
      'BadValue',
      '$lookup requires either localField and foreignField, or a pipeline',
    );
  }
  if (from === undefined && pipeline?.[0]?.[0] !== '$documents') {
    throw new EmbeddedDbError('BadValue', "$lookup without 'from' needs a pipeline starting with $documents");
  }
  for (const [name] of pipeline ?? []) {
    checkStageName(name);
    if (name === '$out' || name === '$merge')
      throw new EmbeddedDbError('BadValue', `${name} is not allowed within a $lookup pipeline`);
  }
  return {
    from: from as string | undefined,
    as,
    equality: localField === undefined ? undefined : { localField, foreignField: foreignField as string },
    let: spec.let as Document | undefined,
    pipeline,
  };
}

/**
 * `$lookup`: each document with the matching documents of another collection of the database
 * (read by its own scan, indexes included) in `as`, in their natural order; with a pipeline,
 * that pipeline run over them with the `let` variables of the document.
 */
async function lookupStage(docs: Document[], spec: unknown, run: Run): Promise<Document[]> {
  const lookup = lookupSpec(spec);
  const foreign = lookup.from === undefined ? undefined : run.input.collection(lookup.from);
  const out: Document[] = [];
  for (const doc of docs) {
    const equality = lookup.equality
      ? { [lookup.equality.foreignField]: { $in: localValues(doc, lookup.equality.localField) } }
      : undefined;
    let stages = lookup.pipeline ?? [];
    let variables = run.variables;
    if (lookup.let !== undefined) {
      const vars: Document = {};
      for (const [name, expr] of Object.entries(lookup.let)) {
        checkVariableName(name);
        setOwn(
          vars,
          name,
          computing('$lookup let', () => evalExpr(doc, expr as never, run.options)),
        );
      }
      variables = { ...run.variables, ...vars };
    }
    const inner: Run =
      variables === run.variables
        ? run
        : { ...run, variables, options: computeOptions(variables, run.context) };
    let joined: Document[];
    if (foreign) {
      // The equality, and a leading `$match` of the pipeline, are the foreign collection's scan.
      let filter: Document = equality ?? {};
      const [first] = stages;
      if (first?.[0] === '$match') {
        const match = bindFilter(checkMatch(first[1]), inner.variables);
        filter = equality ? { $and: [equality, match] } : match;
        stages = stages.slice(1);
      }
      const scanned = await foreign.scan(filter, run.work, Number.POSITIVE_INFINITY, run.collation);
      joined = stages.length > 0 ? await runStages(scanned, stages, inner) : scanned;
    } else {
      const documents = documentsStage(stages[0]?.[1], inner);
      const matched = equality ? documents.filter(compileLoose(equality, run.collation).test) : documents;
      joined = await runStages(matched, stages.slice(1), inner);
    }
    out.push(withPath(doc, lookup.as, joined));
    if (run.work.due()) await run.work.pause();
  }
  return out;
}

/** `$documents`: the documents an expression (evaluated once) gives. */
function documentsStage(spec: unknown, run: Run): Document[] {
  const docs = computing('$documents', () => evalExpr({}, spec as never, run.options));
  if (!Array.isArray(docs) || docs.some((doc) => !isPlainObject(doc))) {
    throw new EmbeddedDbError('BadValue', '$documents must evaluate to an array of objects');
  }
  return docs as Document[];
}

/** Runs `stages` over `docs` (the stages after any leading one the source ran). */
export async function runStages(
  docs: Document[],
  stages: Array<[string, unknown]>,
  run: Run,
): Promise<Document[]> {
  let current = docs;
  for (const [index, [name, spec]] of stages.entries()) {
    checkStageName(name);
    switch (name) {
      case '$match':
        current = await matchStage(current, spec, run);
        break;
      case '$addFields':
      case '$set':
        current = await addFieldsStage(current, name, spec, run);
        break;
      case '$project':
      case '$unset':
      case '$replaceRoot':
      case '$replaceWith':
        current = await mingoStage(current, name, spec, run);
        break;
      case '$unwind':
        current = await unwindStage(current, spec, run);
        break;
      case '$group':
        current = await groupStage(current, spec, run);
        break;
      case '$sortByCount': {
        if (!(typeof spec === 'string' && spec.startsWith('$')) && !isPlainObject(spec)) {
          throw new EmbeddedDbError(
            'BadValue',
            'the argument to $sortByCount must be a $-prefixed path or an expression object',
          );
        }
        const grouped = await groupStage(current, { _id: spec, count: { $sum: 1 } }, run);
        current = await sortDocumentsInSlices(
          grouped,
          { count: -1 },
          undefined,
          run.work,
          run.collation?.compare,
        );
        break;
      }
      case '$sort':
        current = await sortDocumentsInSlices(
          current,
          sortSpec(spec),
          sortedCount(stages, index),
          run.work,
          run.collation?.compare,
        );
        break;
      case '$skip':
        current = current.slice(countArgument(name, spec));
        break;
      case '$limit':
        current = current.slice(0, countArgument(name, spec));
        break;
      case '$count':
        current = countStage(current, spec);
        break;
      case '$facet':
        current = await facetStage(current, spec, run);
        break;
      case '$lookup':
        current = await lookupStage(current, spec, run);
        break;
      case '$documents':
        if (index !== 0 || run.input.source !== undefined) {
          throw new EmbeddedDbError(
            'BadValue',
            '$documents is only valid as the first stage of a database-level pipeline',
          );
        }
        current = documentsStage(spec, run);
        break;
      default:
        throw notImplemented(`the ${name} stage`);
    }
  }
  return current;
}
