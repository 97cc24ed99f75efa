import type { Document } from '@store/common';
import type { RequestContext } from '../model/context';

/** The fields `timestamps: true` manages; a body never sets them. */
export const TIMESTAMP_FIELDS = ['createdAt', 'updatedAt'] as const;

/** Whether a (dotted) key is one of {@link TIMESTAMP_FIELDS} or inside one. */
export function isManaged(key: string): boolean {
  return TIMESTAMP_FIELDS.some((field) => key === field || key.startsWith(`${field}.`));
}

/** A new document's timestamps: both `createdAt` and `updatedAt` are the request's instant. */
export function stampCreated(ctx: RequestContext, doc: Document): Document {
  if (!ctx.resource.timestamps) return doc;
  return Object.assign(doc, { createdAt: ctx.now, updatedAt: ctx.now });
}

/** A replacement keeps the stored `createdAt` (or gets one) and a new `updatedAt`. */
export function stampReplaced(ctx: RequestContext, doc: Document, previous: Document): Document {
  if (!ctx.resource.timestamps) return doc;
  const createdAt = previous.createdAt instanceof Date ? previous.createdAt : ctx.now;
  return Object.assign(doc, { createdAt, updatedAt: ctx.now });
}

/** A `$set` drops body values for the managed fields and sets `updatedAt`. */
export function stampPatched(ctx: RequestContext, set: Document): Document {
  if (!ctx.resource.timestamps) return set;
  const kept = Object.entries(set).filter(([key]) => !isManaged(key));
  return Object.assign(Object.create(null), Object.fromEntries(kept), { updatedAt: ctx.now });
}
