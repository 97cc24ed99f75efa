/**
 * Updates given as an aggregation pipeline (an array of stages), as MongoDB applies them: only
 * `$set` / `$addFields`, `$unset`, `$project` and `$replaceRoot` / `$replaceWith`, run by mingo
 * with the engine's expression operators (RE2 regexes, never the stock backtracking ones), with
 * the operation's `let` variables. The result keeps the document's `_id`: a stage that drops it
 * gets it back, one that changes it is refused (ImmutableField), as for operator updates.
 */

import type { Document } from '@store/common';
import { isPlainObject } from '@store/common';
import { asBadValue, EmbeddedDbError } from './errors';
import {
  Aggregator,
  accumulatorOperators,
  Context,
  expressionOperators,
  pipelineOperators,
  projectionOperators,
} from './mingo';
import { pipelineAt } from './pipeline-now';
import { REGEX_EXPRESSIONS } from './regex-expressions';
import { idKey, toStored } from './values';

const { $addFields, $project, $replaceRoot, $replaceWith, $set, $unset } = pipelineOperators;

type ContextOps = NonNullable<Parameters<typeof Context.init>[0]>;

/** The stages MongoDB allows in an update pipeline. */
const UPDATE_STAGES = { $addFields, $set, $project, $unset, $replaceRoot, $replaceWith };

let context: Context | undefined;

/** Built on first use: registering every operator is costly. */
export function pipelineContext(): Context {
  context ??= Context.init({
    pipeline: UPDATE_STAGES as unknown as ContextOps['pipeline'],
    expression: { ...expressionOperators, ...REGEX_EXPRESSIONS } as unknown as ContextOps['expression'],
    accumulator: accumulatorOperators as unknown as ContextOps['accumulator'],
    projection: projectionOperators as unknown as ContextOps['projection'],
  });
  return context;
}

/** Checks an update pipeline: each stage one allowed operator (MongoDB's codes and messages). */
export function validatePipeline(stages: readonly unknown[]): asserts stages is Document[] {
  for (const stage of stages) {
    if (!isPlainObject(stage) || Object.keys(stage).length !== 1) {
      throw new EmbeddedDbError(
        'FailedToParse',
        'A pipeline stage specification object must contain exactly one field.',
      );
    }
    const [name] = Object.keys(stage) as [string];
    if (!Object.hasOwn(UPDATE_STAGES, name)) {
      const known = name.startsWith('$') ? name : `'${name}'`;
      throw new EmbeddedDbError('InvalidOptions', `${known} is not allowed to be used within an update`);
    }
  }
}

/** A pipeline update ready to run on each document of one operation (its `$$NOW` is read once). */
export interface PipelineRun {
  run(doc: Document): Document[];
}

/** The run of the pipeline `stages` (validated) with the operation's `let` `variables`. */
export function pipelineRun(stages: readonly Document[], variables: Document | undefined): PipelineRun {
  // Every document of the operation sees the same `$$NOW`.
  const fixed = pipelineAt(stages, new Date()) as Document[];
  const aggregator = asBadValue(
    'update pipeline',
    () => new Aggregator(fixed, { context: pipelineContext(), variables }),
  );
  return { run: (doc) => asBadValue('update pipeline', () => aggregator.run([doc]) as Document[]) };
}

/**
 * `doc` after the pipeline `pipeline`, as a new stored document. `inserting` (an upsert) lets
 * the pipeline set an `_id` the seed lacks.
 */
export function applyPipeline(doc: Document, pipeline: PipelineRun, inserting: boolean): Document {
  const [result] = pipeline.run(toStored(doc));
  if (!isPlainObject(result)) {
    throw new EmbeddedDbError('BadValue', 'the update pipeline must produce a document');
  }
  const hasId = Object.hasOwn(result, '_id') && result._id !== undefined;
  if (hasId && Object.hasOwn(doc, '_id') && idKey(result._id) !== idKey(doc._id)) {
    throw new EmbeddedDbError(
      'ImmutableField',
      "Performing an update on the path '_id' would modify the immutable field '_id'",
    );
  }
  if (hasId || (inserting && !Object.hasOwn(doc, '_id'))) return toStored(result);
  const { _id: _dropped, ...rest } = result;
  return toStored({ _id: doc._id, ...rest });
}
