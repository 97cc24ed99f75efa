/**
 * Soft delete (`resources.<name>.softDelete`): `DELETE` sets
 * {@link SOFT_DELETE_FIELD}, and every grant on the resource leaves such documents out, unless
 * a read carries `$$withDeleted=1` (and its read rule allows the read at all).
 */
import type { Document } from '@store/common';
import type { RequestContext } from '../model/context';
import type { Operation } from '../model/hooks';

/** The field a soft delete sets (to the time of the delete). */
export const SOFT_DELETE_FIELD = 'deletedAt';

/** The flag that shows soft-deleted documents to a read: `$$withDeleted=1`. */
const WITH_DELETED_FLAG = 'withDeleted';

/** The clause ANDed into a grant on `ctx.resource` for `operation`; `{}` when none applies. */
export function softDeleteClause(ctx: RequestContext, operation: Operation): Document {
  if (!ctx.resource.softDelete || operation === 'create') return {};
  if (operation === 'read' && ctx.flags[WITH_DELETED_FLAG] === '1') return {};
  return { [SOFT_DELETE_FIELD]: null };
}
