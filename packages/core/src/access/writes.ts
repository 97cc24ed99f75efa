import type { Document } from '@store/common';
import { idKey, isObjectId } from '@store/populate';
import type { RequestContext } from '../model/context';
import { storeError } from '../model/error-codes';
import { REVISION_FIELD } from '../model/revision';
import { reachedField } from './field-paths';

/** Whether two field values are the same; ids of any kind compare by {@link idKey} (`"7"` is `7`, a hex string its ObjectId). */
function sameValue(a: unknown, b: unknown): boolean {
  const idLike = (value: unknown) =>
    typeof value === 'string' || typeof value === 'number' || isObjectId(value);
  if (idLike(a) && idLike(b)) return idKey(a) === idKey(b);
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Why a write may not set `field` of `ctx.resource`, for the 403's detail. */
function reasonFixed(ctx: RequestContext, field: string): string {
  if (ctx.resource.protected.includes(field)) return `resources.${ctx.resource.name}.protected lists it`;
  if (field === ownerFieldOf(ctx)) return 'the owner is set from the session';
  return Object.hasOwn(ctx.access.bound, field) ? 'the access rule fixes it' : 'only the store sets it';
}

function cannotChange(ctx: RequestContext, field: string) {
  return storeError(
    'forbidden',
    `body.${field}: cannot be changed on "${ctx.resource.name}" (${reasonFixed(ctx, field)}).`,
  );
}

const OWNED_OPERATIONS = ['read', 'update', 'delete'] as const;

/**
 * The owner field of a resource with an `"owner"` rule on read, update or delete (not on `_id`:
 * the user collection owns by `_id`). Whatever the create rule, a new document's owner is then
 * the caller, and no update changes it: otherwise a post created under `"authenticated"` would
 * have no owner (its author could never edit it) or one the body forged.
 */
function ownerFieldOf(ctx: RequestContext): string | undefined {
  for (const operation of OWNED_OPERATIONS) {
    const rule = ctx.resource.access[operation];
    if (rule.kind === 'owner' && rule.field !== '_id') return rule.field;
  }
  return undefined;
}

/**
 * The fields a write may not change: those the grant binds (but `_id`, never writable), the
 * owner field of {@link ownerFieldOf}, the managed ones, the revision and `resources.<name>.protected`.
 */
function fixedFields(ctx: RequestContext): string[] {
  const bound = Object.keys(ctx.access.bound).filter((field) => field !== '_id');
  const owner = ownerFieldOf(ctx);
  const fields = [...bound, ...(owner === undefined ? [] : [owner]), ...ctx.resource.managed, REVISION_FIELD];
  return [...new Set([...fields, ...ctx.resource.protected])];
}

/**
 * The values a new document is bound to: the grant's, and the owner field of
 * {@link ownerFieldOf} when the create rule does not bind it (the caller's `_id`; `undefined`
 * without a session: the document is stored without an owner).
 */
function boundOnCreate(ctx: RequestContext): Document {
  const owner = ownerFieldOf(ctx);
  if (owner === undefined || Object.hasOwn(ctx.access.bound, owner)) return ctx.access.bound;
  return { ...ctx.access.bound, [owner]: ctx.user?._id };
}

/**
 * A new document gets the values the grant binds (under `"owner"`, or an `"owner"` rule on
 * another operation, its owner field is the signed-in user's `_id`); a body naming another value
 * is a 403 `forbidden`, never silently rewritten. A body carrying a protected field is a 403.
 */
export function bindNewDocument(ctx: RequestContext, doc: Document): Document {
  const given = [...ctx.resource.protected, REVISION_FIELD].find((field) => doc[field] !== undefined);
  if (given !== undefined) throw cannotChange(ctx, given);
  for (const [field, value] of Object.entries(boundOnCreate(ctx))) {
    if (doc[field] !== undefined && (value === undefined || !sameValue(doc[field], value))) {
      throw cannotChange(ctx, field);
    }
    if (value === undefined) delete doc[field];
    else doc[field] = value;
  }
  return doc;
}

/**
 * The `$set` of a PATCH without keys that change a protected field (403 `forbidden`): setting a
 * bound field to its bound value (the owner to the caller) is a no-op and is dropped; any other
 * key on, inside or above a protected field is refused.
 */
export function protectPatch(ctx: RequestContext, set: Document): Document {
  const fields = fixedFields(ctx);
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
  for (const field of fixedFields(ctx)) {
    const given = replacement[field];
    if (given !== undefined && !sameValue(given, stored[field])) throw cannotChange(ctx, field);
    if (stored[field] === undefined) delete replacement[field];
    else replacement[field] = stored[field];
  }
  return replacement;
}
