/**
 * The mingo context pipelines compute with (the engine's operators in place of mingo's where they
 * differ, one context per collation) and mingo's compute options for a pipeline's variables.
 */
import type { Document } from '@store/common';
import type { Options } from 'mingo/types';
import { collatedExpressions } from '../collated-expressions';
import type { Collation } from '../collation';
import { EmbeddedDbError } from '../errors';
import {
  Aggregator,
  accumulatorOperators,
  Context,
  expressionOperators,
  pipelineOperators,
  projectionOperators,
} from '../mingo';
import { REGEX_EXPRESSIONS } from '../regex-expressions';
import { accumulatorOverrides } from './accumulators';
import { notImplemented } from './pipeline-run';

/** Internal pipeline operator through which mingo hands over its compute options (see {@link computeOptions}). */
const CAPTURE_STAGE = '$__embeddedCapture';
let captured: Options | undefined;

type Ops<K extends keyof NonNullable<Parameters<typeof Context.init>[0]>> = NonNullable<
  NonNullable<Parameters<typeof Context.init>[0]>[K]
>;

/** mingo's expression operators the pipelines compute with: the engine's RE2 regex expressions replace mingo's. */
const EXPRESSIONS = {
  ...expressionOperators,
  ...REGEX_EXPRESSIONS,
  // Text scores and index keys are not kept by the engine.
  $meta: () => {
    throw notImplemented('$meta');
  },
  // Server-side JavaScript is not run by the engine.
  $function: () => {
    throw notImplemented('$function');
  },
  // Accumulators only, not expressions, in MongoDB (mingo would compute them over an array).
  ...Object.fromEntries(
    ['$push', '$addToSet', '$count'].map((name) => [
      name,
      () => {
        throw new EmbeddedDbError('BadValue', `Unrecognized expression '${name}'`);
      },
    ]),
  ),
};

/** The pipeline stages mingo runs for the engine. */
const PIPELINE_OPERATORS = {
  $project: pipelineOperators.$project,
  $unset: pipelineOperators.$unset,
  $replaceRoot: pipelineOperators.$replaceRoot,
  $replaceWith: pipelineOperators.$replaceWith,
  [CAPTURE_STAGE]: (collection: unknown, _expr: unknown, options: Options) => {
    captured = options;
    return collection;
  },
};

/** mingo's operators the pipelines compute with, under `collation` (strings compared by it) if one is given. */
const buildContext = (collation: Collation | undefined): Context =>
  Context.init({
    expression: {
      ...EXPRESSIONS,
      ...(collation ? collatedExpressions(collation, EXPRESSIONS) : {}),
    } as unknown as Ops<'expression'>,
    accumulator: {
      ...accumulatorOperators,
      ...accumulatorOverrides(collation),
    } as unknown as Ops<'accumulator'>,
    projection: projectionOperators as unknown as Ops<'projection'>,
    pipeline: PIPELINE_OPERATORS as unknown as Ops<'pipeline'>,
  });

/** The operators of a pipeline without a collation. */
const CONTEXT = buildContext(undefined);
/** The operators under each collation used, by collation key (a few). */
const collatedContexts = new Map<string, Context>();
const COLLATED_CONTEXTS_KEPT = 16;

/** The operators a pipeline under `collation` computes with (built once per collation). */
export function contextOf(collation: Collation | undefined): Context {
  if (!collation) return CONTEXT;
  const cached = collatedContexts.get(collation.key);
  if (cached) return cached;
  const context = buildContext(collation);
  if (collatedContexts.size >= COLLATED_CONTEXTS_KEPT) collatedContexts.clear();
  collatedContexts.set(collation.key, context);
  return context;
}

/** The plain options of a pipeline's mingo calls. */
export const mingoOptions = (variables: Document, context: Context): Partial<Options> => ({
  context,
  variables,
  scriptEnabled: false,
});

/**
 * mingo's own compute options for `variables`: given plain options, every expression evaluated
 * would copy the whole operator context; its own instance is reused as is. It is caught by
 * running an internal stage that hands it over.
 */
export function computeOptions(variables: Document, context: Context): Options {
  captured = undefined;
  new Aggregator([{ [CAPTURE_STAGE]: 1 }], mingoOptions(variables, context)).run([]);
  const options = captured as Options | undefined;
  if (!options) throw new EmbeddedDbError('BadValue', 'the pipeline could not be prepared');
  return options;
}
