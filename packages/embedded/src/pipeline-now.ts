/**
 * One `$$NOW` per operation. mingo reads the clock again for each document (and each stage) it
 * evaluates `$$NOW` on, while MongoDB gives every document of one aggregation or update the same
 * time: before a pipeline runs, each `$$NOW` in its expressions becomes the literal time the
 * operation began. Only expressions are rewritten: a `$match` filter's `'$$NOW'` outside `$expr`
 * is a string to compare with, and a `$literal`'s operand is data.
 */
import type { Document } from '@store/common';
import { isPlainObject } from '@store/common';

/** `value`, an expression, with every `$$NOW` made the literal `now`. */
function expressionAt(value: unknown, now: Date): unknown {
  if (value === '$$NOW') return { $literal: now };
  if (Array.isArray(value)) return value.map((item) => expressionAt(item, now));
  if (!isPlainObject(value)) return value;
  const out: Document = {};
  for (const [key, inner] of Object.entries(value)) {
    out[key] = key === '$literal' ? inner : expressionAt(inner, now);
  }
  return out;
}

/** A `$match` filter with the `$$NOW`s of its `$expr`s (at any depth of `$and` / `$or` / `$nor`) made `now`. */
function filterAt(filter: unknown, now: Date): unknown {
  if (!isPlainObject(filter)) return filter;
  const out: Document = {};
  for (const [key, inner] of Object.entries(filter)) {
    if (key === '$expr') out[key] = expressionAt(inner, now);
    else if ((key === '$and' || key === '$or' || key === '$nor') && Array.isArray(inner)) {
      out[key] = inner.map((each) => filterAt(each, now));
    } else out[key] = inner;
  }
  return out;
}

/** One stage `{ $name: spec }` at `now` (a stage of another shape is left for the pipeline to refuse). */
function stageAt(stage: unknown, now: Date): unknown {
  if (!isPlainObject(stage)) return stage;
  const entries = Object.entries(stage);
  if (entries.length !== 1) return stage;
  const [name, spec] = entries[0] as [string, unknown];
  if (name === '$match') return { $match: filterAt(spec, now) };
  if (name === '$facet' && isPlainObject(spec)) {
    const facets: Document = {};
    for (const [facet, pipeline] of Object.entries(spec)) facets[facet] = pipelineAt(pipeline, now);
    return { $facet: facets };
  }
  if (name === '$lookup' && isPlainObject(spec)) {
    const lookup: Document = { ...spec };
    if (spec.let !== undefined) lookup.let = expressionAt(spec.let, now);
    if (spec.pipeline !== undefined) lookup.pipeline = pipelineAt(spec.pipeline, now);
    return { $lookup: lookup };
  }
  return { [name]: expressionAt(spec, now) };
}

/** `pipeline` with every `$$NOW` of its expressions made `now`; anything but an array is left as it is. */
export function pipelineAt(pipeline: unknown, now: Date): unknown {
  return Array.isArray(pipeline) ? pipeline.map((stage) => stageAt(stage, now)) : pipeline;
}
