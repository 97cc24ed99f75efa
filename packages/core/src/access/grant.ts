import { idVariants } from '@store/populate';
import type { RequestContext } from '../context';
import { storeError } from '../errors';
import { andFilters } from '../filters';
import { runHook } from '../hooks';
import { isPlainObject } from '../option-checks';
import type { Document } from '../storage/types';
import type { Operation, ResolvedRule } from './rules';

/** The owner an `"owner"` rule binds a request to. */
export interface Ownership {
  /** The resource's `ownerField`. */
  readonly field: string;
  /** The signed-in user's `_id`, as stored. */
  readonly id: unknown;
}

/** What the access rule (and `beforeRead`) let one request do on one resource. */
export interface AccessGrant {
  /** ANDed outside every filter the request brings, in every query on the resource. */
  readonly filter: Document;
  /** Under `"owner"`: the field a create sets and an update may not change. */
  readonly owner: Ownership | null;
}

/** What a request may do before any rule ran: everything (internal reads, tests). */
export const OPEN_GRANT: AccessGrant = Object.freeze({ filter: Object.freeze({}), owner: null });

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
  const decision = await runHook(() => rule.decide(ctx));
  if (decision === true) return OPEN_GRANT;
  if (decision === false) throw refused(ctx, operation);
  if (operation !== 'create' && isPlainObject(decision)) return { filter: decision, owner: null };
  const expected = operation === 'create' ? 'true or false' : 'true, false or a filter object';
  throw new TypeError(
    `resources.${ctx.resource.name}.access.${operation} returned ${typeof decision}; expected ${expected}`,
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
  const owner = { field: rule.field, id: ctx.user._id };
  return { filter: ownedBy(owner.field, owner.id), owner };
}

/**
 * Evaluates the access rule of `ctx.resource` for `operation`: 401 `unauthorized` without a
 * session where one is needed, 403 `forbidden` where it is not enough; otherwise the grant. Reads
 * also AND the filter `hooks.beforeRead` returns. `ctx` must be scoped to the resource.
 */
export async function grantAccess(ctx: RequestContext, operation: Operation): Promise<AccessGrant> {
  const grant = await ruleGrant(ctx, ctx.resource.access[operation], operation);
  const { beforeRead } = ctx.resource.hooks;
  if (operation !== 'read' || beforeRead === undefined) return grant;
  const added = await runHook(() => beforeRead(ctx));
  if (added === undefined || added === null) return grant;
  if (!isPlainObject(added)) {
    throw new TypeError(
      `resources.${ctx.resource.name}.hooks.beforeRead must return a filter object or nothing`,
    );
  }
  return { ...grant, filter: andFilters(grant.filter, added) };
}

/** `ctx` with the grant of its own resource and operation ({@link grantAccess}). */
export async function authorize(
  ctx: RequestContext,
  operation: Operation = ctx.operation,
): Promise<RequestContext> {
  return { ...ctx, access: await grantAccess(ctx, operation) };
}
