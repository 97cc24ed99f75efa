/**
 * Aggregation pipelines of the embedded engine, with MongoDB's answers or a refusal that names
 * what is not supported (code 238, NotImplemented), never another answer.
 *
 * The stages run one after the other over arrays of documents, in slices of one `Work` (its
 * `maxTimeMS` and `maxExamined` cover the whole pipeline, `$lookup`'s reads included). A leading
 * `$match` is the collection's own scan (its indexes, its RE2 regexes, its budgets), and so is
 * each read of a `$lookup`'s foreign collection. Every `$match` is compiled by the engine's filter
 * compiler; `$sort` is the engine's sort (MongoDB's order of BSON values); `$group`, `$unwind`,
 * `$addFields` / `$set`, `$lookup`, `$facet`, `$count`, `$skip`, `$limit` are this module's.
 * mingo runs `$project`, `$unset` and `$replaceRoot` / `$replaceWith` (its answers set right where
 * they differ from MongoDB's: field order, `_id: 1` beside exclusions) and computes every
 * expression, in a context of its operators built here: the engine's RE2 regex expressions in
 * place of mingo's backtracking ones, and the engine's own `$group` accumulators where mingo's
 * answer otherwise (BSON order for `$min` / `$max`, missing values not pushed). Documents flowing
 * between stages are never changed in place (stored documents pass through them), and the answer
 * is made of fresh copies. Under a collation (the `collation` option) strings compare by it in
 * every `$match`, `$sort`, `$group` key, `$lookup` read and comparing expression, or the stage
 * is refused by name (collated-expressions.ts); none compares them binary.
 */
import type { Document } from '@store/common';
import { isPlainObject } from '@store/common';
import { Aggregator } from 'mingo/aggregator';
import { Context, evalExpr, OpType } from 'mingo/core';
import * as accumulatorOperators from 'mingo/operators/accumulator';
import * as expressionOperators from 'mingo/operators/expression';
import * as pipelineOperators from 'mingo/operators/pipeline';
import * as projectionOperators from 'mingo/operators/projection';
import type { Options } from 'mingo/types';
import { resolve } from 'mingo/util';
import { compareValues } from './bson-order';
import { collatedExpressions, collatedGroupKeys, uniqueBy } from './collated-expressions';
import { type Collation, type CollationOption, parseCollation } from './collation';
import { type CompiledFilter, compileFilter } from './compile-filter';
import { EmbeddedDbError, toBadValue } from './errors';
import { CollectionIndexes } from './indexes';
import { valuesAtPath } from './paths';
import { pipelineAt } from './pipeline-now';
import { REGEX_EXPRESSIONS } from './regex-expressions';
import { sortDocumentsInSlices } from './sort-in-slices';
import { cloneValue, idKey, setOwn } from './values';
import type { Work, WorkLimits } from './work';

/** Options of `aggregate` (a collection's and a database's). */
export interface AggregateOptions extends WorkLimits, CollationOption {
  /** Variables the pipeline's expressions read as `$$name` (their values are expressions, evaluated once). */
  let?: Document;
  /** Accepted for the driver's sake; the engine answers all at once. */
  batchSize?: number;
  /** Accepted, unused (MongoDB logs it). */
  comment?: unknown;
  /** Accepted, unused: the engine never spills to disk. */
  allowDiskUse?: boolean;
  /** An index (by name or key pattern) that must exist; the engine chooses its own plan, with the same answer. */
  hint?: unknown;
}

/** What a pipeline reads: a collection of the engine (or none, for a database-level pipeline). */
export interface PipelineSource {
  /**
   * The stored documents (never to be changed) `filter` matches, in natural order, at most
   * `enough` of them, scanned in slices of `work` (the collection's indexes and budgets apply);
   * strings compared by `collation` when one is given.
   */
  scan(filter: Document, work: Work, enough: number, collation?: Collation): Promise<Document[]>;
  /** How many documents `filter` matches, counting up to `enough` (an empty filter: the collection's size). */
  count(filter: Document, work: Work, enough: number, collation?: Collation): Promise<number>;
  /** `filter` compiled as the collection compiles it (under `collation`, if any), to test documents already read. */
  compile(filter: Document, collation?: Collation): CompiledFilter;
}

/** The source of a pipeline and what its `$lookup` stages reach. */
export interface PipelineInput {
  /** The collection the pipeline reads; undefined for a database-level pipeline (`$documents` first). */
  source: PipelineSource | undefined;
  /** Another collection of the same database, by name. */
  collection(name: string): PipelineSource;
}

/** The indexes of no collection: what a `$match` over documents of no collection compiles against. */
const NO_INDEXES = new CollectionIndexes();
const compileLoose = (filter: Document, collation: Collation | undefined): CompiledFilter =>
  compileFilter(filter, NO_INDEXES, undefined, collation);

const notImplemented = (what: string): EmbeddedDbError =>
  new EmbeddedDbError('NotImplemented', `${what} is not supported by the embedded engine`);

/** Every stage name MongoDB knows: the ones the engine does not run are refused by name (238). */
const KNOWN_STAGES: ReadonlySet<string> = new Set([
  '$addFields',
  '$bucket',
  '$bucketAuto',
  '$changeStream',
  '$changeStreamSplitLargeEvent',
  '$collStats',
  '$count',
  '$currentOp',
  '$densify',
  '$documents',
  '$facet',
  '$fill',
  '$geoNear',
  '$graphLookup',
  '$group',
  '$indexStats',
  '$limit',
  '$listClusterCatalog',
  '$listLocalSessions',
  '$listSampledQueries',
  '$listSearchIndexes',
  '$listSessions',
  '$lookup',
  '$match',
  '$merge',
  '$out',
  '$planCacheStats',
  '$project',
  '$querySettings',
  '$queryStats',
  '$rankFusion',
  '$redact',
  '$replaceRoot',
  '$replaceWith',
  '$sample',
  '$score',
  '$scoreFusion',
  '$search',
  '$searchMeta',
  '$set',
  '$setWindowFields',
  '$shardedDataDistribution',
  '$skip',
  '$sort',
  '$sortByCount',
  '$unionWith',
  '$unset',
  '$unwind',
  '$vectorSearch',
]);

/** Accumulators of `$group` the engine computes; MongoDB's others are refused by name. */
const ACCUMULATORS: ReadonlySet<string> = new Set([
  '$sum',
  '$avg',
  '$min',
  '$max',
  '$first',
  '$last',
  '$push',
  '$addToSet',
  '$count',
]);

const KNOWN_ACCUMULATORS: ReadonlySet<string> = new Set([
  ...ACCUMULATORS,
  '$accumulator',
  '$bottom',
  '$bottomN',
  '$concatArrays',
  '$firstN',
  '$lastN',
  '$maxN',
  '$median',
  '$mergeObjects',
  '$minN',
  '$percentile',
  '$setUnion',
  '$stdDevPop',
  '$stdDevSamp',
  '$top',
  '$topN',
]);

type Accumulate = (docs: Document[], expr: unknown, options: Options) => unknown;

/**
 * The value of `expr` for each of `docs`, undefined where it is missing. With no expression
 * (null), the items themselves: mingo calls an accumulator so when it serves as an expression
 * over an array (`{ $first: '$tags' }` in `$project`); `$group` never passes null.
 */
function valuesOf(docs: Document[], expr: unknown, options: Options): unknown[] {
  if (expr === null || expr === undefined) return docs.slice();
  const values: unknown[] = new Array(docs.length);
  for (let i = 0; i < docs.length; i++) values[i] = evalExpr(docs[i] as Document, expr as never, options);
  return values;
}

const isBsonNumber = (value: unknown): boolean => {
  const type = (value as { _bsontype?: unknown } | null)?._bsontype;
  return type === 'Decimal128' || type === 'Long' || type === 'Int32' || type === 'Double';
};

/** The numbers among `values` (MongoDB's `$sum` and `$avg` skip anything else); a BSON number object is refused. */
function numbersOf(values: unknown[], operator: string): number[] {
  const numbers: number[] = [];
  for (const value of values) {
    if (typeof value === 'number') numbers.push(value);
    else if (isBsonNumber(value)) throw notImplemented(`${operator} of a Decimal128 or Long value`);
  }
  return numbers;
}

/** The least (or greatest) of the values that are neither null nor missing, in `compare`'s order; null when none. */
function extreme(values: unknown[], sign: 1 | -1, compare: (a: unknown, b: unknown) => number): unknown {
  let best: unknown;
  for (const value of values) {
    if (value === null || value === undefined) continue;
    if (best === undefined || compare(value, best) * sign < 0) best = value;
  }
  return best === undefined ? null : best;
}

/** `$addToSet`'s values: each once (BSON equality), the first seen kept, in the order seen. */
function uniqueValues(values: unknown[]): unknown[] {
  const seen = new Map<string, unknown>();
  for (const value of values) {
    if (value === undefined) continue;
    const key = idKey(value);
    if (!seen.has(key)) seen.set(key, value);
  }
  return [...seen.values()];
}

/**
 * The accumulators whose mingo version differs from MongoDB's, the engine's own; under a
 * collation, `$min`, `$max` and `$addToSet` compare strings by it.
 */
const accumulatorOverrides = (collation: Collation | undefined): Record<string, Accumulate> => ({
  $sum: (docs, expr, options) => numbersOf(valuesOf(docs, expr, options), '$sum').reduce((a, b) => a + b, 0),
  $avg: (docs, expr, options) => {
    const numbers = numbersOf(valuesOf(docs, expr, options), '$avg');
    return numbers.length === 0 ? null : numbers.reduce((a, b) => a + b, 0) / numbers.length;
  },
  $min: (docs, expr, options) =>
    extreme(valuesOf(docs, expr, options), 1, collation?.compare ?? compareValues),
  $max: (docs, expr, options) =>
    extreme(valuesOf(docs, expr, options), -1, collation?.compare ?? compareValues),
  $first: (docs, expr, options) =>
    docs.length === 0 ? null : (valuesOf([docs[0] as Document], expr, options)[0] ?? null),
  $last: (docs, expr, options) =>
    docs.length === 0 ? null : (valuesOf([docs[docs.length - 1] as Document], expr, options)[0] ?? null),
  $count: (docs) => docs.length,
  // A missing value is not pushed (mingo pushes null).
  $push: (docs, expr, options) => valuesOf(docs, expr, options).filter((value) => value !== undefined),
  $addToSet: (docs, expr, options) => {
    const values = valuesOf(docs, expr, options);
    if (!collation) return uniqueValues(values);
    return uniqueBy(
      values.filter((value) => value !== undefined),
      collation.compare,
    );
  },
});

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
function contextOf(collation: Collation | undefined): Context {
  if (!collation) return CONTEXT;
  const cached = collatedContexts.get(collation.key);
  if (cached) return cached;
  const context = buildContext(collation);
  if (collatedContexts.size >= COLLATED_CONTEXTS_KEPT) collatedContexts.clear();
  collatedContexts.set(collation.key, context);
  return context;
}

/** The plain options of a pipeline's mingo calls. */
const mingoOptions = (variables: Document, context: Context): Partial<Options> => ({
  context,
  variables,
  scriptEnabled: false,
});

/**
 * mingo's own compute options for `variables`: given plain options, every expression evaluated
 * would copy the whole operator context; its own instance is reused as is. It is caught by
 * running an internal stage that hands it over.
 */
function computeOptions(variables: Document, context: Context): Options {
  captured = undefined;
  new Aggregator([{ [CAPTURE_STAGE]: 1 }], mingoOptions(variables, context)).run([]);
  const options = captured as Options | undefined;
  if (!options) throw new EmbeddedDbError('BadValue', 'the pipeline could not be prepared');
  return options;
}

/** Runs `fn`, turning a foreign error (mingo's) into a BadValue naming `what`. */
function computing<T>(what: string, fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    throw toBadValue(what, error);
  }
}

/** What a running pipeline carries: its input, budgets, variables, collation and the operators computing under it. */
interface Run {
  input: PipelineInput;
  work: Work;
  variables: Document;
  options: Options;
  /** The pipeline's collation; undefined: strings compare binary. */
  collation: Collation | undefined;
  context: Context;
}

const isStage = (stage: unknown): stage is Document =>
  isPlainObject(stage) && Object.keys(stage).length === 1;

/** The name and argument of each stage; refused (40323) unless each is an object of one field. */
function stagesOf(pipeline: unknown): Array<[string, unknown]> {
  if (!Array.isArray(pipeline)) throw new EmbeddedDbError('BadValue', 'pipeline must be an array');
  return pipeline.map((stage) => {
    if (!isStage(stage)) {
      throw new EmbeddedDbError(
        'Location40323',
        'A pipeline stage specification object must contain exactly one field.',
      );
    }
    const [name] = Object.keys(stage) as [string];
    return [name, stage[name]];
  });
}

/** Refuses a stage MongoDB does not know (40324), or one the engine does not run (238). */
function checkStageName(name: string): void {
  if (!KNOWN_STAGES.has(name)) {
    throw new EmbeddedDbError('Location40324', `Unrecognized pipeline stage name: '${name}'`);
  }
}

const SYSTEM_VARIABLES: ReadonlySet<string> = new Set([
  'NOW',
  'CLUSTER_TIME',
  'ROOT',
  'CURRENT',
  'REMOVE',
  'DESCEND',
  'PRUNE',
  'KEEP',
  'SEARCH_META',
  'USER_ROLES',
]);

/** A user variable's name as MongoDB takes it: a lowercase (or non-ASCII) letter first, then letters, digits, `_`. */
const isVariableName = (name: string): boolean => /^[a-z\u0080-\uffff][\w\u0080-\uffff]*$/.test(name);

/** The `let` option evaluated (each value an expression with no document), checked by name. */
function evaluateLet(value: unknown, outer: Document, context: Context): Document {
  if (value === undefined) return outer;
  if (!isPlainObject(value)) throw new EmbeddedDbError('BadValue', 'let must be an object');
  const options = computeOptions(outer, context);
  const variables: Document = { ...outer };
  for (const [name, expr] of Object.entries(value)) {
    if (!isVariableName(name)) {
      throw new EmbeddedDbError(
        'BadValue',
        `'${name}' starts with an invalid character for a user variable name`,
      );
    }
    setOwn(
      variables,
      name,
      computing('let', () => evalExpr({}, expr as never, options)),
    );
  }
  return variables;
}

/**
 * `expr` (an aggregation expression) with the variables of `variables` it reads replaced by
 * their values (as literals), except where an inner `$let`, `$map`, `$filter` or `$reduce`
 * binds the same name: a `$match` is compiled by the engine's filter compiler, which knows no
 * variables.
 */
function bindExpression(expr: unknown, variables: Document, shadowed: ReadonlySet<string>): unknown {
  if (typeof expr === 'string') {
    if (!expr.startsWith('$$')) return expr;
    const dot = expr.indexOf('.');
    const name = expr.slice(2, dot === -1 ? undefined : dot);
    if (shadowed.has(name) || SYSTEM_VARIABLES.has(name) || !Object.hasOwn(variables, name)) return expr;
    const value = dot === -1 ? variables[name] : resolve(variables[name] as Document, expr.slice(dot + 1));
    return value === undefined ? '$$REMOVE' : { $literal: value };
  }
  if (Array.isArray(expr)) return expr.map((item) => bindExpression(item, variables, shadowed));
  if (!isPlainObject(expr)) return expr;
  const [operator] = Object.keys(expr);
  const argument = operator === undefined ? undefined : expr[operator];
  const within = (names: string[]) => new Set([...shadowed, ...names]);
  if (operator === '$literal') return expr;
  if (operator === '$let' && isPlainObject(argument) && isPlainObject(argument.vars)) {
    const vars = argument.vars;
    return {
      $let: {
        vars: bindExpression(vars, variables, shadowed),
        in: bindExpression(argument.in, variables, within(Object.keys(vars))),
      },
    };
  }
  if ((operator === '$map' || operator === '$filter') && isPlainObject(argument)) {
    const bound = within([typeof argument.as === 'string' ? argument.as : 'this']);
    const out: Document = {};
    for (const [key, value] of Object.entries(argument)) {
      const inner = key === 'in' || key === 'cond';
      setOwn(out, key, bindExpression(value, variables, inner ? bound : shadowed));
    }
    return { [operator]: out };
  }
  if (operator === '$reduce' && isPlainObject(argument)) {
    const out: Document = {};
    for (const [key, value] of Object.entries(argument)) {
      setOwn(out, key, bindExpression(value, variables, key === 'in' ? within(['value', 'this']) : shadowed));
    }
    return { $reduce: out };
  }
  const out: Document = {};
  for (const [key, value] of Object.entries(expr))
    setOwn(out, key, bindExpression(value, variables, shadowed));
  return out;
}

/** A `$match` filter with the pipeline's variables bound in its `$expr` clauses. */
function bindFilter(filter: Document, variables: Document): Document {
  if (Object.keys(variables).length === 0) return filter;
  const out: Document = {};
  for (const [key, value] of Object.entries(filter)) {
    if (key === '$expr') setOwn(out, key, bindExpression(value, variables, new Set()));
    else if ((key === '$and' || key === '$or' || key === '$nor') && Array.isArray(value)) {
      setOwn(
        out,
        key,
        value.map((clause) => (isPlainObject(clause) ? bindFilter(clause, variables) : clause)),
      );
    } else setOwn(out, key, value);
  }
  return out;
}

const NEAR_OPERATORS: ReadonlySet<string> = new Set(['$near', '$nearSphere', '$geoNear']);

/** Whether `filter` uses a near operator anywhere (MongoDB refuses them in `$match`). */
function usesNear(filter: unknown): boolean {
  if (Array.isArray(filter)) return filter.some(usesNear);
  if (!isPlainObject(filter)) return false;
  return Object.entries(filter).some(([key, value]) => NEAR_OPERATORS.has(key) || usesNear(value));
}

const NEAR_REFUSED = '$geoNear, $near, and $nearSphere are not allowed in this context';

function checkMatch(filter: unknown): Document {
  if (!isPlainObject(filter)) throw new EmbeddedDbError('BadValue', '$match specification must be an object');
  if (usesNear(filter)) throw new EmbeddedDbError('BadValue', NEAR_REFUSED);
  return filter;
}

/** A `$match` past the first stage: the engine's filter over the documents in hand, in slices. */
async function matchStage(docs: Document[], spec: unknown, run: Run): Promise<Document[]> {
  const filter = bindFilter(checkMatch(spec), run.variables);
  if (Object.hasOwn(filter, '$text')) {
    throw new EmbeddedDbError('BadValue', '$match with $text is only allowed as the first pipeline stage');
  }
  const { source } = run.input;
  const compiled = source ? source.compile(filter, run.collation) : compileLoose(filter, run.collation);
  const kept: Document[] = [];
  let at = 0;
  while (at < docs.length) {
    const doc = docs[at++] as Document;
    if (compiled.test(doc)) kept.push(doc);
    if (run.work.tick() && at < docs.length) await run.work.pause();
  }
  return kept;
}

/** Documents handed to mingo at once by a stage that computes each document alone. */
const CHUNK = 128;

/** The dotted paths a `$unset` removes or a `$project` names. */
function nestedPaths(name: string, spec: unknown): string[] {
  if (name === '$unset') {
    const fields = typeof spec === 'string' ? [spec] : Array.isArray(spec) ? spec : [];
    return fields.filter((field): field is string => typeof field === 'string' && field.includes('.'));
  }
  if (!isPlainObject(spec)) return [];
  const paths = Object.keys(spec).filter((field) => field.includes('.'));
  // A nested projection (`{ a: { b: 1 } }`) names `a.b`.
  if (name === '$project') {
    for (const [field, value] of Object.entries(spec)) {
      if (isPlainObject(value) && !Object.keys(value).some((key) => key.startsWith('$'))) paths.push(field);
    }
  }
  return paths;
}

const FLAGS: ReadonlySet<unknown> = new Set([0, 1, true, false]);

/**
 * The top-level fields a `$project` computes (an expression rather than an inclusion): MongoDB
 * writes the included fields first, in the document's order, then the computed ones in the
 * specification's order. Undefined for an exclusion (mingo keeps the document's order).
 */
function computedFields(spec: Document): string[] | undefined {
  const computed: string[] = [];
  let includes = false;
  const visit = (top: string, path: string, value: unknown): void => {
    if (FLAGS.has(value)) {
      if ((value === 1 || value === true) && path !== '_id') includes = true;
    } else if (isPlainObject(value) && Object.keys(value).every((key) => !key.startsWith('$'))) {
      for (const [key, inner] of Object.entries(value)) visit(top, `${path}.${key}`, inner);
    } else {
      includes = true;
      if (!computed.includes(top)) computed.push(top);
    }
  };
  for (const [path, value] of Object.entries(spec)) visit(path.split('.')[0] as string, path, value);
  return includes ? computed : undefined;
}

/** `value` (included from `input`) with the fields of its sub-documents in `input`'s order. */
function inInputOrder(value: unknown, input: unknown): unknown {
  if (Array.isArray(value) && Array.isArray(input) && value.length === input.length) {
    return value.map((item, i) => inInputOrder(item, input[i]));
  }
  if (!isPlainObject(value) || !isPlainObject(input)) return value;
  const out: Document = {};
  for (const key of Object.keys(input))
    if (Object.hasOwn(value, key)) setOwn(out, key, inInputOrder(value[key], input[key]));
  for (const key of Object.keys(value)) if (!Object.hasOwn(out, key)) setOwn(out, key, value[key]);
  return out;
}

/** A `$project`'s output in MongoDB's field order: included fields as in the input, then computed ones as in the specification. */
function projectedInOrder(output: Document, input: Document, computed: readonly string[]): Document {
  const out: Document = {};
  for (const key of Object.keys(input)) {
    if (Object.hasOwn(output, key) && !computed.includes(key))
      setOwn(out, key, inInputOrder(output[key], input[key]));
  }
  for (const key of computed) if (Object.hasOwn(output, key)) setOwn(out, key, output[key]);
  for (const key of Object.keys(output)) if (!Object.hasOwn(out, key)) setOwn(out, key, output[key]);
  return out;
}

/** The dotted paths a `$project` computes (an expression below a sub-document). */
function computedPaths(spec: Document, prefix = ''): string[] {
  const paths: string[] = [];
  for (const [key, value] of Object.entries(spec)) {
    const path = prefix === '' ? key : `${prefix}.${key}`;
    const keys = isPlainObject(value) ? Object.keys(value) : [];
    if (keys.length > 0 && !keys.some((inner) => inner.startsWith('$'))) {
      paths.push(...computedPaths(value as Document, path));
    } else if (!FLAGS.has(value) && path.includes('.')) paths.push(path);
  }
  return paths;
}

/**
 * Refuses a `$project` computing a dotted path through an array or a scalar of `doc`: MongoDB
 * computes it into each element (mingo does not).
 */
function checkComputedPaths(doc: Document, paths: readonly string[]): void {
  for (const path of paths) {
    let value: unknown = doc;
    for (const segment of path.split('.').slice(0, -1)) {
      value = (value as Document)[segment];
      if (value === undefined) break;
      if (!isPlainObject(value)) {
        throw notImplemented(
          `$project computing '${path}' through an array or a value that is not a document`,
        );
      }
    }
  }
}

/** An exclusion `$project` without its `_id: 1` (kept anyway), which mingo would take for a mix. */
function withoutIdInclusion(spec: unknown): unknown {
  if (!isPlainObject(spec) || !(spec._id === 1 || spec._id === true)) return spec;
  const others = Object.entries(spec).filter(([key]) => key !== '_id');
  const excludes = others.length > 0 && others.every(([, value]) => value === 0 || value === false);
  return excludes ? Object.fromEntries(others) : spec;
}

/** Checks what mingo lets through and MongoDB refuses: an empty `$project`, an empty `$unset`. */
function checkComputedStage(name: string, spec: unknown): void {
  if (name === '$project' && isPlainObject(spec) && Object.keys(spec).length === 0) {
    throw new EmbeddedDbError('BadValue', '$project requires at least one output field');
  }
  if (name === '$unset') {
    const fields = typeof spec === 'string' ? [spec] : spec;
    if (
      !Array.isArray(fields) ||
      fields.length === 0 ||
      fields.some((field) => typeof field !== 'string' || field === '')
    ) {
      throw new EmbeddedDbError(
        'BadValue',
        '$unset specification must be a string or an array with at least one field',
      );
    }
  }
}

/** The fields a `$set` / `$addFields` writes, by dotted path (a sub-document of fields is fields of that sub-document). */
function addedFields(spec: unknown, name: string, prefix = ''): Array<[string, unknown]> {
  if (!isPlainObject(spec))
    throw new EmbeddedDbError('BadValue', `${name} specification stage must be an object`);
  const fields: Array<[string, unknown]> = [];
  for (const [key, value] of Object.entries(spec)) {
    const path = prefix === '' ? key : `${prefix}.${key}`;
    for (const segment of key.split('.')) {
      if (segment === '' || segment.startsWith('$')) {
        throw new EmbeddedDbError('BadValue', `Invalid field name in ${name}: '${path}'`);
      }
    }
    const keys = isPlainObject(value) ? Object.keys(value) : [];
    if (keys.length > 0 && !keys.some((inner) => inner.startsWith('$'))) {
      fields.push(...addedFields(value, name, path));
    } else fields.push([path, value]);
  }
  return fields;
}

/**
 * `value` with `computed` at `segments` (from `at`), as MongoDB's `$addFields` writes it: into
 * every element of an array on the way, a scalar on the way replaced by a sub-document; a
 * missing value (undefined) removes the field. Copies what it changes.
 */
function withComputed(value: unknown, segments: readonly string[], at: number, computed: unknown): unknown {
  if (at === segments.length) return computed;
  if (Array.isArray(value)) return value.map((element) => withComputed(element, segments, at, computed));
  if (!isPlainObject(value)) return computed === undefined ? value : withComputed({}, segments, at, computed);
  const head = segments[at] as string;
  const out: Document = {};
  for (const key of Object.keys(value)) setOwn(out, key, value[key]);
  const next = withComputed(Object.hasOwn(value, head) ? value[head] : undefined, segments, at + 1, computed);
  if (next === undefined) delete out[head];
  else setOwn(out, head, next);
  return out;
}

/** `$set` / `$addFields`: each field computed from the document as it came in, then written (an existing field keeps its place). */
async function addFieldsStage(docs: Document[], name: string, spec: unknown, run: Run): Promise<Document[]> {
  const fields = addedFields(spec, name).map(([path, expr]) => [path.split('.'), expr] as const);
  const out: Document[] = [];
  let at = 0;
  while (at < docs.length) {
    const doc = docs[at++] as Document;
    const values = fields.map(([, expr]) => computing(name, () => evalExpr(doc, expr as never, run.options)));
    let next: Document = doc;
    fields.forEach(([segments], i) => {
      next = withComputed(next, segments, 0, values[i]) as Document;
    });
    out.push(next);
    if (run.work.tick() && at < docs.length) await run.work.pause();
  }
  return out;
}

/** A stage computed document by document by mingo, in chunks between which the pipeline may pause. */
async function mingoStage(docs: Document[], name: string, spec: unknown, run: Run): Promise<Document[]> {
  checkComputedStage(name, spec);
  const given = name === '$project' ? withoutIdInclusion(spec) : spec;
  const aggregator = computing(
    name,
    () => new Aggregator([{ [name]: given }], mingoOptions(run.variables, run.context)),
  );
  const throughPaths = name === '$project' && isPlainObject(spec) ? computedPaths(spec) : [];
  // mingo changes the nested objects of its input in place for a dotted path: it is given copies.
  const copies = (name === '$project' || name === '$unset') && nestedPaths(name, spec).length > 0;
  const computed = name === '$project' && isPlainObject(spec) ? computedFields(spec) : undefined;
  // Checked even with no document, as MongoDB checks a stage before it runs.
  computing(name, () => aggregator.run([]));
  const out: Document[] = [];
  for (let from = 0; from < docs.length; from += CHUNK) {
    const inputs = docs.slice(from, from + CHUNK);
    if (throughPaths.length > 0) for (const doc of inputs) checkComputedPaths(doc, throughPaths);
    const chunk = copies ? inputs.map(cloneValue) : inputs;
    const outputs = computing(name, () => aggregator.run(chunk)) as Document[];
    for (const [i, doc] of outputs.entries()) {
      out.push(computed ? projectedInOrder(doc, inputs[i] as Document, computed) : doc);
    }
    if (from + CHUNK < docs.length && run.work.due()) await run.work.pause();
  }
  if (name === '$replaceRoot' || name === '$replaceWith') {
    for (const doc of out) {
      if (!isPlainObject(doc)) {
        throw new EmbeddedDbError('BadValue', `'newRoot' expression must evaluate to an object`);
      }
    }
  }
  return out;
}

/** `doc` with `value` at the dotted `path`, copying the objects on the way (nothing shared is changed). */
function withPath(doc: Document, path: string, value: unknown): Document {
  const [head = '', ...rest] = path.split('.');
  const out: Document = { ...doc };
  if (head === '__proto__') setOwn(out, head, undefined);
  if (rest.length === 0) {
    if (value === undefined) delete out[head];
    else setOwn(out, head, value);
    return out;
  }
  const inner = isPlainObject(doc[head]) ? (doc[head] as Document) : {};
  setOwn(out, head, withPath(inner, rest.join('.'), value));
  return out;
}

/** The value at a dotted path through sub-documents only (arrays are not walked), as `$unwind` reads it. */
function valueAt(doc: Document, path: string): unknown {
  let value: unknown = doc;
  for (const segment of path.split('.')) {
    if (!isPlainObject(value) || !Object.hasOwn(value, segment)) return undefined;
    value = value[segment];
  }
  return value;
}

/** A `$`-prefixed field path argument, without the `$`. */
function fieldPath(value: unknown, what: string): string {
  if (typeof value !== 'string' || !value.startsWith('$') || value.startsWith('$$') || value.length < 2) {
    throw new EmbeddedDbError('BadValue', `${what} must be a field path starting with '$'`);
  }
  return value.slice(1);
}

/** `$unwind`: one document per array element; a non-array value is one element; null, missing and [] none (unless kept). */
async function unwindStage(docs: Document[], spec: unknown, run: Run): Promise<Document[]> {
  const options = typeof spec === 'string' ? { path: spec } : spec;
  if (!isPlainObject(options)) throw new EmbeddedDbError('BadValue', '$unwind expects a string or an object');
  const path = fieldPath(options.path, '$unwind path');
  const preserve = options.preserveNullAndEmptyArrays ?? false;
  if (typeof preserve !== 'boolean') {
    throw new EmbeddedDbError('BadValue', 'preserveNullAndEmptyArrays must be a boolean');
  }
  const indexField = options.includeArrayIndex;
  if (
    indexField !== undefined &&
    (typeof indexField !== 'string' || indexField === '' || indexField.startsWith('$'))
  ) {
    throw new EmbeddedDbError('BadValue', 'includeArrayIndex must be a non-empty string not starting with $');
  }
  for (const key of Object.keys(options)) {
    if (!['path', 'preserveNullAndEmptyArrays', 'includeArrayIndex'].includes(key)) {
      throw new EmbeddedDbError('BadValue', `unrecognized option to $unwind stage: ${key}`);
    }
  }
  const indexed = (doc: Document, index: number | null) =>
    indexField === undefined ? doc : withPath(doc, indexField as string, index);
  const out: Document[] = [];
  let at = 0;
  while (at < docs.length) {
    const doc = docs[at++] as Document;
    const value = valueAt(doc, path);
    if (Array.isArray(value) && value.length > 0) {
      value.forEach((element, i) => {
        out.push(indexed(withPath(doc, path, element), i));
      });
    } else if (Array.isArray(value) || value === null || value === undefined) {
      if (preserve) out.push(indexed(Array.isArray(value) ? withPath(doc, path, undefined) : doc, null));
    } else out.push(indexed(doc, null));
    if (run.work.tick() && at < docs.length) await run.work.pause();
  }
  return out;
}

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
function accumulatorsOf(spec: Document): Array<[string, string, unknown]> {
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
function countingGroup(spec: unknown): { id: unknown; fields: Array<[string, number]> } | undefined {
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
function countedGroup(group: NonNullable<ReturnType<typeof countingGroup>>, count: number): Document[] {
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
async function groupStage(docs: Document[], spec: unknown, run: Run): Promise<Document[]> {
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

/** A `$sort` specification, checked: fields to 1 or -1 (a `$meta` sort is refused by name). */
function sortSpec(spec: unknown): Record<string, 1 | -1> {
  if (!isPlainObject(spec))
    throw new EmbeddedDbError('BadValue', 'the $sort key specification must be an object');
  if (Object.keys(spec).length === 0) {
    throw new EmbeddedDbError('BadValue', '$sort stage must have at least one sort key');
  }
  const sort: Record<string, 1 | -1> = {};
  for (const [field, direction] of Object.entries(spec)) {
    if (isPlainObject(direction) && Object.hasOwn(direction, '$meta')) throw notImplemented('a $meta sort');
    if (field === '' || field.startsWith('$')) {
      throw new EmbeddedDbError('BadValue', `FieldPath field names may not start with '$': ${field}`);
    }
    if (direction !== 1 && direction !== -1) {
      throw new EmbeddedDbError(
        'BadValue',
        '$sort key ordering must be 1 (for ascending) or -1 (for descending)',
      );
    }
    sort[field] = direction;
  }
  return sort;
}

/** A `$skip` / `$limit` argument: a whole number (non-negative for `$skip`, positive for `$limit`). */
function countArgument(name: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    throw new EmbeddedDbError('BadValue', `invalid argument to ${name} stage: Expected an integer`);
  }
  if (name === '$skip' && value < 0)
    throw new EmbeddedDbError('BadValue', 'invalid argument to $skip stage: Expected a non-negative number');
  if (name === '$limit' && value <= 0)
    throw new EmbeddedDbError('BadValue', 'invalid argument to $limit stage: Expected a positive number');
  return value;
}

/** `$count`: one document holding the number of documents in `name`, none when there are none. */
function countStage(docs: Document[], name: unknown): Document[] {
  if (typeof name !== 'string' || name === '')
    throw new EmbeddedDbError('BadValue', 'the count field must be a non-empty string');
  if (name.startsWith('$'))
    throw new EmbeddedDbError('BadValue', 'the count field cannot be a $-prefixed path');
  if (name.includes('.')) throw new EmbeddedDbError('BadValue', "the count field cannot contain '.'");
  if (docs.length === 0) return [];
  const out: Document = {};
  setOwn(out, name, docs.length);
  return [out];
}

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
        if (!isVariableName(name)) {
          throw new EmbeddedDbError(
            'BadValue',
            `'${name}' starts with an invalid character for a user variable name`,
          );
        }
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
async function runStages(docs: Document[], stages: Array<[string, unknown]>, run: Run): Promise<Document[]> {
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

/** How many of the documents entering stage `index + 1` a run of `$skip` / `$limit` stages there keeps at most. */
function keptByPage(stages: Array<[string, unknown]>, from: number): number {
  const [name, spec] = stages[from] ?? [];
  const count = typeof spec === 'number' && Number.isSafeInteger(spec) ? spec : undefined;
  if (name === '$limit' && count !== undefined && count > 0)
    return Math.min(count, keptByPage(stages, from + 1));
  if (name === '$skip' && count !== undefined && count >= 0) return count + keptByPage(stages, from + 1);
  return Number.POSITIVE_INFINITY;
}

/** How many documents a `$sort` at `index` must order (the first ones a following `$limit` keeps), or all. */
function sortedCount(stages: Array<[string, unknown]>, index: number): number | undefined {
  const kept = keptByPage(stages, index + 1);
  return Number.isFinite(kept) ? kept : undefined;
}

/**
 * Runs `pipeline` over `input` (see the module comment) within `work`; the answer is fresh
 * copies. Each stage is checked as it is reached, but the stage names of the whole pipeline
 * first: one MongoDB does not know (40324), or that the engine does not run (238).
 */
export async function runPipeline(
  pipeline: unknown,
  options: AggregateOptions,
  input: PipelineInput,
  work: Work,
): Promise<Document[]> {
  // Every document and stage of the operation sees the same `$$NOW`.
  const stages = stagesOf(pipelineAt(pipeline, new Date()));
  for (const [name] of stages) checkStageName(name);
  for (const [name] of stages) {
    if (!IMPLEMENTED_STAGES.has(name)) throw notImplemented(`the ${name} stage`);
  }
  // The collation, if any, reaches every `$match` compiled (the source's scans included),
  // `$sort`, `$group` keys, `$lookup`'s reads and the expressions comparing strings.
  const collation = parseCollation(options.collation);
  const context = contextOf(collation);
  const misplaced = stages.findIndex(([name], i) => name === '$documents' && (i > 0 || input.source));
  if (misplaced !== -1) {
    throw new EmbeddedDbError(
      'BadValue',
      '$documents is only valid as the first stage of a database-level pipeline',
    );
  }
  const variables = evaluateLet(options.let, {}, context);
  const run: Run = {
    input,
    work,
    variables,
    options: computeOptions(variables, context),
    collation,
    context,
  };
  let docs: Document[] = [];
  let rest = stages;
  if (input.source) {
    const [first] = stages;
    let filter: Document = {};
    if (first?.[0] === '$match') {
      filter = bindFilter(checkMatch(first[1]), variables);
      rest = stages.slice(1);
    }
    // The pipeline of a count (`$skip` and `$limit` stages, then a counting `$group`) counts
    // the matches as countDocuments does, without reading them.
    let paging = 0;
    while (rest[paging]?.[0] === '$skip' || rest[paging]?.[0] === '$limit') paging += 1;
    const [groupName, groupSpec] = rest[paging] ?? [];
    const counting = groupName === '$group' ? countingGroup(groupSpec) : undefined;
    if (counting) {
      accumulatorsOf(groupSpec as Document);
      let count = await input.source.count(filter, work, keptByPage(rest, 0), collation);
      for (const [name, spec] of rest.slice(0, paging)) {
        const value = countArgument(name, spec);
        count = name === '$skip' ? Math.max(0, count - value) : Math.min(count, value);
      }
      docs = countedGroup(counting, count);
      rest = rest.slice(paging + 1);
    } else docs = await input.source.scan(filter, work, keptByPage(rest, 0), collation);
  } else if (stages[0]?.[0] !== '$documents') {
    throw new EmbeddedDbError(
      'InvalidNamespace',
      `{aggregate: 1} is not valid for '${stages[0]?.[0] ?? 'an empty pipeline'}'; a collection is required.`,
    );
  }
  const out = await runStages(docs, rest, run);
  const copies: Document[] = [];
  for (const doc of out) {
    copies.push(answerCopy(doc) as Document);
    if (work.tick()) await work.pause();
  }
  return copies;
}

/** A fresh copy of an answer's value, as MongoDB returns it: a missing field (undefined) left out, null in an array. */
function answerCopy(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((item) => (item === undefined ? null : answerCopy(item)));
  if (!isPlainObject(value)) return cloneValue(value);
  const out: Document = {};
  for (const [key, inner] of Object.entries(value))
    if (inner !== undefined) setOwn(out, key, answerCopy(inner));
  return out;
}

/** The stages the engine runs. */
const IMPLEMENTED_STAGES: ReadonlySet<string> = new Set([
  '$match',
  '$project',
  '$addFields',
  '$set',
  '$unset',
  '$replaceRoot',
  '$replaceWith',
  '$unwind',
  '$group',
  '$sortByCount',
  '$sort',
  '$skip',
  '$limit',
  '$count',
  '$facet',
  '$lookup',
  '$documents',
]);
