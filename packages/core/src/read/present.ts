import type { Document } from '@store/common';
import { hideFields } from '@store/populate';
import { hookContext } from '../hooks/hook-context';
import { runHook } from '../hooks/hooks';
import type { RequestContext } from '../model/context';
import { withoutRevision } from '../model/revision';
import { onTheWire } from './wire-id';

/**
 * `hooks.afterRead` of `ctx.resource` over documents an answer carries: its result, checked to
 * hold one document per input document (it reshapes, it does not filter: access rules and
 * `beforeRead` decide what is seen). The input array is the hook's to change.
 */
export async function afterRead(ctx: RequestContext, documents: Document[]): Promise<Document[]> {
  const hook = ctx.resource.hooks.afterRead;
  if (hook === undefined || documents.length === 0) return documents;
  const shown = documents.map(withoutRevision);
  const shaped = (await runHook(() => hook(hookContext(ctx), shown))) ?? shown;
  if (!Array.isArray(shaped) || shaped.length !== documents.length) {
    throw new TypeError(
      `resources.${ctx.resource.name}.hooks.afterRead must return one document per document it receives`,
    );
  }
  return shaped;
}

const hide = (documents: Document[], hidden: readonly string[]): Document[] =>
  hidden.length === 0 ? documents : documents.map((doc) => hideFields(doc, hidden));

/**
 * What a route answers for documents of `ctx.resource`: after `afterRead`, without the `hidden`
 * fields, with `_id` named as `wireId` says. Synchronous when the resource has no `afterRead`
 * (most requests: no promise to wait for).
 */
export function present(ctx: RequestContext, documents: Document[]): Document[] | Promise<Document[]> {
  const { hidden, hooks } = ctx.resource;
  if (hooks.afterRead === undefined) return onTheWire(ctx, hide(documents, hidden));
  return afterRead(ctx, documents).then((shaped) => onTheWire(ctx, hide(shaped, hidden)));
}

/** {@link present} for one document. */
export function presentOne(ctx: RequestContext, document: Document): Document | Promise<Document> {
  const shown = present(ctx, [document]);
  return Array.isArray(shown) ? (shown[0] as Document) : shown.then(([first]) => first as Document);
}
