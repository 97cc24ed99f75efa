import { idKey, isObjectId } from '@store/populate';
import type { RequestContext } from '../context';
import { storeError } from '../errors';
import type { Document } from '../storage/types';

/** Whether two field values are the same; ids of any kind compare by {@link idKey} (`"7"` is `7`, a hex string its ObjectId). */
function sameValue(a: unknown, b: unknown): boolean {
  const idLike = (value: unknown) =>
    typeof value === 'string' || typeof value === 'number' || isObjectId(value);
  if (idLike(a) && idLike(b)) return idKey(a) === idKey(b);
  return JSON.stringify(a) === JSON.stringify(b);
}

function cannotChange(ctx: RequestContext, field: string) {
  const why = ctx.access.owner?.field === field ? 'it names the owner' : 'only the store sets it';
  return storeError('forbidden', `body.${field}: cannot be changed on "${ctx.resource.name}" (${why}).`);
}

/** The fields a write may not change: the owner field under `"owner"`, and the managed fields. */
function protectedFields(ctx: RequestContext): string[] {
  const owner = ctx.access.owner?.field;
  return owner === undefined || owner === '_id'
    ? [...ctx.resource.managed]
    : [owner, ...ctx.resource.managed];
}

/**
 * A new document under `"owner"`: its owner field is the signed-in user's `_id`, whatever the
 * body says; a body naming another owner is a 403 `forbidden`, never silently rewritten.
 */
export function ownNewDocument(ctx: RequestContext, doc: Document): Document {
  const owner = ctx.access.owner;
  if (owner === null) return doc;
  if (doc[owner.field] !== undefined && !sameValue(doc[owner.field], owner.id))
    throw cannotChange(ctx, owner.field);
  doc[owner.field] = owner.id;
  return doc;
}

/**
 * The `$set` of a PATCH without keys that change a protected field (403 `forbidden`): setting the
 * owner field to the caller's own id is a no-op and is dropped; any other key on, inside or
 * above a protected field is refused.
 */
export function protectPatch(ctx: RequestContext, set: Document): Document {
  const fields = protectedFields(ctx);
  if (fields.length === 0) return set;
  const owner = ctx.access.owner;
  for (const key of Object.keys(set)) {
    if (owner !== null && key === owner.field && sameValue(set[key], owner.id)) {
      delete set[key];
      continue;
    }
    const field = fields.find((f) => key === f || key.startsWith(`${f}.`) || f.startsWith(`${key}.`));
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
