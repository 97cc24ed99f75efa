/**
 * The parts of mingo the engine runs, loaded by `require`. mingo's build for Node is CommonJS
 * (about 300 files): an ES module importing it makes Node scan every file it reaches for its
 * exports first, about 0.1 s of every start, which `require` skips. The same modules (one module
 * cache), typed as mingo declares them; types alone are imported from mingo as usual.
 */
import { createRequire } from 'node:module';

type Mingo = typeof import('mingo');
type Core = typeof import('mingo/core');
type Util = typeof import('mingo/util');
type Updater = typeof import('mingo/updater');
type QueryModule = typeof import('mingo/query');
type AggregatorModule = typeof import('mingo/aggregator');

const load = createRequire(import.meta.url);

export const { Context, evalExpr, OpType }: Core = load('mingo/core');
export type Context = import('mingo/core').Context;
export const { cloneDeep, isOperator, normalize, resolve }: Util = load('mingo/util');
export const { update, updateMany }: Updater = load('mingo/updater');
export const { Query }: QueryModule = load('mingo/query');
export type Query = import('mingo/query').Query;
export const { Aggregator }: AggregatorModule = load('mingo/aggregator');

/** mingo's `find`: its whole package (every operator in one context) is loaded when first called. */
export const find: Mingo['find'] = (...args) => (load('mingo') as Mingo).find(...args);

/** mingo's operators, by group. */
export const accumulatorOperators: typeof import('mingo/operators/accumulator') = load(
  'mingo/operators/accumulator',
);
export const expressionOperators: typeof import('mingo/operators/expression') = load(
  'mingo/operators/expression',
);
export const pipelineOperators: typeof import('mingo/operators/pipeline') = load('mingo/operators/pipeline');
export const projectionOperators: typeof import('mingo/operators/projection') = load(
  'mingo/operators/projection',
);
export const queryOperators: typeof import('mingo/operators/query') = load('mingo/operators/query');
