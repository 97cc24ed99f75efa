import type { Document } from '@store/common';
import type { RequestContext } from '../model/context';
import { presentOne } from '../read/present';
import { wireKey } from '../read/wire-id';

/**
 * The answer body of a write that is already stored: the document as `afterRead` shapes it.
 * When the hook fails (throws, or returns the wrong shape), the write still answers its success
 * status, so the client does not retry a committed write: the body is then `{ _id }` only
 * (`{ id }` under `wireId: 'id'`; the hook that should shape the answer did not, so nothing else
 * is shown) and the failure is logged.
 */
export async function presentWritten(ctx: RequestContext, document: Document): Promise<Document> {
  try {
    return await presentOne(ctx, document);
  } catch (error) {
    ctx.options.logger.error(
      `[@store/core] resources.${ctx.resource.name}.hooks.afterRead failed after the ${ctx.operation} was stored; the answer carries only the ${ctx.options.wireId}`,
      error,
    );
    return wireKey(ctx.options, document._id);
  }
}
