/**
 * The user document an auth answer carries, on the wire: as stored under the store's
 * `wireId: '_id'`; under `'id'`, its `_id` shown as `id` (first, where `_id` stood) and a stored
 * `id` field not shown, as the store's own routes present the same document. Sessions, hooks and
 * the flows keep `_id`.
 */
import type { WireId } from '@store/core';
import type { AuthDocument } from '../db';

export function wireUser(wireId: WireId, user: AuthDocument): AuthDocument {
  if (wireId === '_id') return user;
  const out: AuthDocument = {};
  for (const key of Object.keys(user)) {
    if (key === '_id') out.id = user._id;
    else if (key !== 'id') out[key] = user[key];
  }
  return out;
}
