import type { Document } from '@store/common';
import { isPlainObject } from '@store/common';
import { idVariants } from '@store/populate';
import { hookContext } from '../hooks/hook-context';
import { runHook } from '../hooks/hooks';
import type { AccessGrant, RequestContext } from '../model/context';
import { storeError } from '../model/error-codes';
import type { Operation } from '../model/hooks';
import type { ResolvedRule } from '../model/resource';
import { andFilters } from './filters';
import { softDeleteClause } from './soft-delete';

/** What a request may do before any rule ran: everything (internal reads, tests). */
export const OPEN_GRANT: AccessGrant = Object.freeze({ filter: Object.freeze({}), bound: Object.freeze({}) });

/** Whether a filter value is an equality (`"red"`, an id, an array), not an operator object (`{ $in: ... }`). */
function isEquality(value: unknown): boolean {
  return !isPlainObject(value) || !Object.keys(value).some((key) => key.startsWith('$'));
}

/**
 * The grant of a function's filter: top-level equality fields are bound. On create the filter
 * must be only such fields (they are set on the new document); anything else there is a bug.
 */
function filterGrant(ctx: RequestContext, filter: Document, operation: Operation): AccessGrant {
  const equalities = Object.entries(filter).filter(
    ([key, value]) => !key.startsWith('$') && !key.includes('.') && isEquality(value),
  );
  if (operation === 'create' && equalities.length !== Object.keys(filter).length) {
    throw new TypeError(
      `resources.${ctx.resource.name}.access.create returned a filter with operators; on create a rule gives true, false or top-level equality fields such as { team: "red" }`,
    );
  }
  return { filter, bound: Object.fromEntries(equalities) };
}

function refused(ctx: RequestContext, operation: Operation) {
  const what = `${operation} "${ctx.resource.name}"`;
  return ctx.user === null
    ? storeError('unauthorized', `Sign in to ${what}.`)
    : storeError('forbidden', `You may not ${what}.`);
}

/** The filter matching documents whose `field` is the user's `_id`, however the reference is stored. */
function ownedBy(field: string, id: unknown): Document {
  const variants = idVariants(id);
  return { [field]: variants.length > 1 ? { $in: variants } : id };
}

async function decide(
  ctx: RequestContext,
  rule: Extract<ResolvedRule, { kind: 'function' }>,
  operation: Operation,
) {
  const decision = await runHook(() => rule.decide(hookContext(ctx)));
  if (decision === true) return OPEN_GRANT;
  if (decision === false) throw refused(ctx, operation);
  if (isPlainObject(decision)) return filterGrant(ctx, decision, operation);
  throw new TypeError(
    `resources.${ctx.resource.name}.access.${operation} returned ${typeof decision}; expected true, false or a filter object`,
  );
}

async function ruleGrant(
  ctx: RequestContext,
  rule: ResolvedRule,
  operation: Operation,
): Promise<AccessGrant> {
  switch (rule.kind) {
    case 'public':
      return OPEN_GRANT;
    case 'none':
      throw storeError('forbidden', `Nobody may ${operation} "${ctx.resource.name}".`);
    case 'function':
      return decide(ctx, rule, operation);
  }
  if (ctx.user === null) throw refused(ctx, operation);
  if (rule.kind === 'authenticated') return OPEN_GRANT;
  const id = ctx.user._id;
  return { filter: ownedBy(rule.field, id), bound: { [rule.field]: id } };
}

/**
 * Evaluates the access rule of `ctx.resource` for `operation`: 401 `unauthorized` without a
 * session where one is needed, 403 `forbidden` where it is not enough; otherwise the grant. Reads
 * also AND the filter `hooks.beforeRead` returns. `ctx` must be scoped to the resource.
 */
export async function grantAccess(ctx: RequestContext, operation: Operation): Promise<AccessGrant> {
  const ruled = await ruleGrant(ctx, ctx.resource.access[operation], operation);
  const deleted = softDeleteClause(ctx, operation);
  const grant =
    Object.keys(deleted).length === 0 ? ruled : { ...ruled, filter: andFilters(ruled.filter, deleted) };
  const { beforeRead } = ctx.resource.hooks;
  if (operation !== 'read' || beforeRead === undefined) return grant;
  const added = await runHook(() => beforeRead(hookContext(ctx)));
  if (added === undefined || added === null) return grant;
  if (!isPlainObject(added)) {
    throw new TypeError(
      `resources.${ctx.resource.name}.hooks.beforeRead must return a filter object or nothing`,
    );
  }
  return { ...grant, filter: andFilters(grant.filter, added) };
}

/**
 * Whether `operation` on `ctx.resource` is open with nothing to run: a `"public"` rule, and no
 * `beforeRead` on a read. Then {@link grantAccess} would give {@link OPEN_GRANT}.
 */
export function isOpenAccess(ctx: RequestContext, operation: Operation): boolean {
  const { access, hooks, softDelete } = ctx.resource;
  return (
    access[operation].kind === 'public' &&
    !softDelete &&
    (operation !== 'read' || hooks.beforeRead === undefined)
  );
}

/** `ctx` with the grant of its own resource and operation ({@link grantAccess}). */
export async function authorize(
  ctx: RequestContext,
  operation: Operation = ctx.operation,
): Promise<RequestContext> {
  if (isOpenAccess(ctx, operation) && ctx.access === OPEN_GRANT) return ctx;
  return { ...ctx, access: await grantAccess(ctx, operation) };
}
