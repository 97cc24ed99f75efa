import type { Document } from '@store/common';
import { idKey, isObjectId } from '@store/populate';
import { storeError } from '../http/error-codes';
import type { RequestContext } from '../model/context';
import { reachedField } from './field-paths';

/** Whether two field values are the same; ids of any kind compare by {@link idKey} (`"7"` is `7`, a hex string its ObjectId). */
function sameValue(a: unknown, b: unknown): boolean {
  const idLike = (value: unknown) =>
    typeof value === 'string' || typeof value === 'number' || isObjectId(value);
  if (idLike(a) && idLike(b)) return idKey(a) === idKey(b);
  return JSON.stringify(a) === JSON.stringify(b);
}

function cannotChange(ctx: RequestContext, field: string) {
  const why = Object.hasOwn(ctx.access.bound, field) ? 'the access rule fixes it' : 'only the store sets it';
  return storeError('forbidden', `body.${field}: cannot be changed on "${ctx.resource.name}" (${why}).`);
}

/** The fields a write may not change: those the grant binds (but `_id`, never writable), and the managed ones. */
function protectedFields(ctx: RequestContext): string[] {
  const bound = Object.keys(ctx.access.bound).filter((field) => field !== '_id');
  return [...bound, ...ctx.resource.managed];
}

/**
 * A new document gets the values the grant binds (under `"owner"`, its owner field is the
 * signed-in user's `_id`); a body naming another value is a 403 `forbidden`, never silently rewritten.
 */
export function bindNewDocument(ctx: RequestContext, doc: Document): Document {
  for (const [field, value] of Object.entries(ctx.access.bound)) {
    if (doc[field] !== undefined && !sameValue(doc[field], value)) throw cannotChange(ctx, field);
    doc[field] = value;
  }
  return doc;
}

/**
 * The `$set` of a PATCH without keys that change a protected field (403 `forbidden`): setting a
 * bound field to its bound value (the owner to the caller) is a no-op and is dropped; any other
 * key on, inside or above a protected field is refused.
 */
export function protectPatch(ctx: RequestContext, set: Document): Document {
  const fields = protectedFields(ctx);
  for (const key of Object.keys(set)) {
    if (Object.hasOwn(ctx.access.bound, key) && sameValue(set[key], ctx.access.bound[key])) {
      delete set[key];
      continue;
    }
    const field = reachedField(key, fields);
    if (field !== undefined) throw cannotChange(ctx, field);
  }
  return set;
}

/**
 * A PUT replacement keeps the stored values of the protected fields (a replace keeps its owner);
 * a body that gives one a different value is a 403 `forbidden`.
 */
export function protectReplacement(ctx: RequestContext, replacement: Document, stored: Document): Document {
  for (const field of protectedFields(ctx)) {
    const given = replacement[field];
    if (given !== undefined && !sameValue(given, stored[field])) throw cannotChange(ctx, field);
    if (stored[field] === undefined) delete replacement[field];
    else replacement[field] = stored[field];
  }
  return replacement;
}
