import type { Document } from '@store/common';
import type { RequestContext } from '../model/context';
import { TIMESTAMP_FIELDS } from './timestamps';

/**
 * Checks the document a write would store against `resources.<name>.schema` (400 `invalid_body`
 * with `errors`), without the fields the store sets: `_id` (the validator leaves it out) and,
 * when on, the timestamps. POST and PUT pass the body, PATCH the stored document with its
 * `$set` applied.
 */
export function validateBody(ctx: RequestContext, document: Document): void {
  const { validate } = ctx.resource;
  if (validate === undefined) return;
  if (!ctx.resource.timestamps) {
    validate(document);
    return;
  }
  const checked: Document = { ...document };
  for (const field of TIMESTAMP_FIELDS) delete checked[field];
  validate(checked);
}
