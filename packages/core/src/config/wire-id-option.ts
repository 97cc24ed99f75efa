import { invalidOption } from '@store/common';
import type { WireId } from '../model/config';

/**
 * Resolves `wireId`, the primary key's name on the wire: `'_id'` (the default: the stored name)
 * or `'id'` (answers, filters, sorting, bodies, nested routes, change events and the API
 * description say `id`; storage, hooks and `db` keep `_id`).
 */
export function resolveWireId(value: unknown): WireId {
  if (value === undefined) return '_id';
  if (value !== '_id' && value !== 'id') {
    invalidOption('wireId', `expected "_id" or "id", got ${JSON.stringify(value) ?? String(value)}`);
  }
  return value;
}
