/**
 * What every part of a pipeline shares: the options of `aggregate`, what a pipeline reads, what a
 * running pipeline carries, and the two ways its stages fail (a refusal by name, a foreign error).
 */
import type { Document } from '@store/common';
import type { Context } from 'mingo/core';
import type { Options } from 'mingo/types';
import type { Collation, CollationOption } from '../collation';
import type { CompiledFilter } from '../compile-filter';
import { EmbeddedDbError, toBadValue } from '../errors';
import type { Work, WorkLimits } from '../work';

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

export const notImplemented = (what: string): EmbeddedDbError =>
  new EmbeddedDbError('NotImplemented', `${what} is not supported by the embedded engine`);

/** Runs `fn`, turning a foreign error (mingo's) into a BadValue naming `what`. */
export function computing<T>(what: string, fn: () => T): T {
  try {
    return fn();
  } catch (error) {
    throw toBadValue(what, error);
  }
}

/** What a running pipeline carries: its input, budgets, variables, collation and the operators computing under it. */
export interface Run {
  input: PipelineInput;
  work: Work;
  variables: Document;
  options: Options;
  /** The pipeline's collation; undefined: strings compare binary. */
  collation: Collation | undefined;
  context: Context;
}
