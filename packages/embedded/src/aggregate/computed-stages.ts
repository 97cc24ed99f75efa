/**
 * The stages that compute each document alone: `$set` / `$addFields` (the engine's), and
 * `$project`, `$unset`, `$replaceRoot` / `$replaceWith` run by mingo, its answers set right where
 * they differ from MongoDB's.
 */

import type { Document } from '@store/common';
import { isPlainObject, setOwn } from '@store/common';
import { EmbeddedDbError } from '../errors';
import { Aggregator, evalExpr } from '../mingo';
import { cloneValue } from '../values';
import { mingoOptions } from './mingo-context';
import { computing, notImplemented, type Run } from './pipeline-run';

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
export async function addFieldsStage(
  docs: Document[],
  name: string,
  spec: unknown,
  run: Run,
): Promise<Document[]> {
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
export async function mingoStage(
  docs: Document[],
  name: string,
  spec: unknown,
  run: Run,
): Promise<Document[]> {
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
