import { omitFields } from '@store/populate';
import type { RequestContext } from './context';
import { runHook } from './hooks';
import type { Document } from './storage/types';

/**
 * `hooks.afterRead` of `ctx.resource` over documents an answer carries: its result, checked to
 * hold one document per input document (it reshapes, it does not filter: access rules and
 * `beforeRead` decide what is seen). The input array is the hook's to change.
 */
export async function afterRead(ctx: RequestContext, documents: Document[]): Promise<Document[]> {
  const hook = ctx.resource.hooks.afterRead;
  if (hook === undefined || documents.length === 0) return documents;
  const shaped = (await runHook(() => hook(ctx, documents))) ?? documents;
  if (!Array.isArray(shaped) || shaped.length !== documents.length) {
    throw new TypeError(
      `resources.${ctx.resource.name}.hooks.afterRead must return one document per document it receives`,
    );
  }
  return shaped;
}

/** What a route answers for documents of `ctx.resource`: after `afterRead`, without the `hidden` fields. */
export async function present(ctx: RequestContext, documents: Document[]): Promise<Document[]> {
  const shaped = await afterRead(ctx, documents);
  const { hidden } = ctx.resource;
  return hidden.length === 0 ? shaped : shaped.map((doc) => omitFields(doc, hidden));
}

/** {@link present} for one document. */
export async function presentOne(ctx: RequestContext, document: Document): Promise<Document> {
  const [shown] = await present(ctx, [document]);
  return shown as Document;
}
