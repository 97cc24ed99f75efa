import { setOwn } from '@store/common';
import type { Projection } from '@store/query';
import type { PopulateDocument } from './db';
import { allReferenceFields, referenceFields, type SingularOverrides } from './naming';

/**
 * Fields the documents of `resource` must carry for the joins to work: `_id` when anything is
 * populated, `<singular>_id` and `<singular>_ids` for every filled parent resource (and
 * `<singular>Id`, `<singular>Ids` with `camelCase`).
 */
export function requiredFields(
  _resource: string,
  populate: readonly string[] = [],
  fill: readonly string[] = [],
  options?: { readonly singular?: SingularOverrides; readonly camelCase?: boolean },
): string[] {
  const out = new Set<string>();
  if (populate.length > 0) out.add('_id');
  for (const path of fill) {
    // `companies.countries`: the page joins `companies`; each company joins its country.
    const fields = referenceFields(path.split('.')[0] as string, options?.singular, options?.camelCase);
    for (const field of allReferenceFields(fields)) out.add(field);
  }
  return [...out];
}

function isInclusion(projection: Readonly<Projection>): boolean {
  return Object.values(projection).some(Boolean);
}

/**
 * Extends a `$select` projection so the join keys are fetched: returns the new projection
 * (the input is not touched) and `added`, the fields the caller did not ask for, to remove
 * afterwards (pass them as `strip` to `attachRelations`, or to {@link stripFields}).
 * Sub-paths of a join key (`company_id.x`) are replaced by the key, avoiding a path collision.
 */
export function withJoinKeys(
  projection: Readonly<Projection> | undefined,
  fields: readonly string[],
): { projection: Projection | undefined; added: string[] } {
  if (projection === undefined) return { projection: undefined, added: [] };
  if (Object.keys(projection).length === 0) return { projection: { ...projection }, added: [] };
  const inclusion = isInclusion(projection);
  const out: Projection = { ...projection };
  const added: string[] = [];
  for (const field of fields) {
    for (const key of Object.keys(out)) if (key.startsWith(`${field}.`)) delete out[key];
    const wanted = Object.hasOwn(projection, field) && Boolean(projection[field]);
    const excluded = Object.hasOwn(projection, field) && !projection[field];
    if (excluded) delete out[field];
    if (inclusion && field !== '_id' && !wanted) out[field] = 1;
    if (excluded || (inclusion && !wanted && field !== '_id')) added.push(field);
  }
  return { projection: out, added };
}

/** `value` without `path` where it holds one: in an embedded document, or in each element of an array (at any depth). */
function omitIn(value: unknown, path: readonly string[]): unknown {
  if (Array.isArray(value)) return value.map((element) => omitIn(element, path));
  if (typeof value !== 'object' || value === null || isLeafValue(value)) return value;
  return omitPath(value as PopulateDocument, path);
}

/** Values stored as objects that hold no fields of the document: dates, ids, binaries. */
function isLeafValue(value: object): boolean {
  const proto = Object.getPrototypeOf(value);
  return proto !== Object.prototype && proto !== null;
}

function omitPath(doc: PopulateDocument, path: readonly string[]): PopulateDocument {
  const [head, ...rest] = path;
  if (head === undefined || !Object.hasOwn(doc, head)) return doc;
  if (rest.length === 0) return copyWithout(doc, (key) => key === head);
  const copy: PopulateDocument = { ...doc };
  copy[head] = omitIn(doc[head], rest);
  return copy;
}

/**
 * A copy of `doc` without the top-level keys `left` names, built key by key: a copy that
 * `delete` shrinks becomes a slow dictionary object for every later read and `JSON.stringify`
 * of it, and answers hide the store's own fields from every document they carry.
 */
function copyWithout(doc: PopulateDocument, left: (key: string) => boolean): PopulateDocument {
  const copy: PopulateDocument = {};
  for (const key of Object.keys(doc)) {
    if (left(key)) continue;
    // An own `__proto__` (JSON can make one) stays a field, not the copy's prototype.
    setOwn(copy, key, doc[key]);
  }
  return copy;
}

/** Whether `doc` holds the top-level field a (possibly dotted) path starts with. */
function holdsHead(doc: PopulateDocument, path: string): boolean {
  const dot = path.indexOf('.');
  return Object.hasOwn(doc, dot < 0 ? path : path.slice(0, dot));
}

/**
 * A copy of `doc` without the given (possibly dotted) fields, as MongoDB reads a path: through
 * arrays of embedded documents at any depth (`cards.cvv` leaves every card without `cvv`).
 * `doc` is never mutated.
 */
export function omitFields(doc: PopulateDocument, fields: readonly string[]): PopulateDocument {
  const topLevel = fields.filter((field) => !field.includes('.'));
  let out = copyWithout(doc, (key) => topLevel.includes(key));
  for (const field of fields) if (field.includes('.')) out = omitPath(out, field.split('.'));
  return out;
}

/** New documents without the given (possibly dotted) fields; the inputs are never mutated. */
export function stripFields(
  docs: readonly PopulateDocument[],
  fields: readonly string[],
): PopulateDocument[] {
  return docs.map((doc) => omitFields(doc, fields));
}

/**
 * {@link omitFields} for an answer: `doc` itself when it holds none of the fields (no copy: most
 * documents hold no hidden field), else the copy without them.
 */
export function hideFields(doc: PopulateDocument, fields: readonly string[]): PopulateDocument {
  return fields.some((field) => holdsHead(doc, field)) ? omitFields(doc, fields) : doc;
}
