import type { RequestContext } from './context';
import type { Document } from './storage/types';

/** Fields the store sets itself, left out of schema validation: `_id`, and the timestamps when on. */
function storeSetFields(ctx: RequestContext): readonly string[] {
  return ctx.resource.timestamps ? ['_id', 'createdAt', 'updatedAt'] : ['_id'];
}

/**
 * Checks the document a write would store against `resources.<name>.schema` (400 `invalid_body`
 * with `errors`), without the fields the store sets. POST and PUT pass the body, PATCH the
 * stored document with its `$set` applied.
 */
export function validateBody(ctx: RequestContext, document: Document): void {
  const { validate } = ctx.resource;
  if (validate === undefined) return;
  const checked: Document = Object.assign(Object.create(null), document);
  for (const field of storeSetFields(ctx)) delete checked[field];
  validate(checked);
}
