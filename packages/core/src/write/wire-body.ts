/**
 * `wireId: 'id'` in request bodies: a body's `id` is the document's `_id` (a POST keeps its value
 * and type, a PUT or PATCH must name the path's document), so hooks, validation and storage see
 * `_id` as always. A body naming both is a 400: they are one field.
 */
import type { Document } from '@store/common';
import type { RequestContext } from '../model/context';
import { storeError } from '../model/error-codes';

/** Whether `key` is the wire's `id` or a path into it (`id.x`, in a PATCH). */
const isWireId = (key: string) => key === 'id' || key.startsWith('id.');
const isStoreId = (key: string) => key === '_id' || key.startsWith('_id.');

/**
 * `body` as storage names its fields: under `wireId: 'id'`, its `id` (and `id.<path>`) as `_id`;
 * otherwise `body` itself. A body that is not an object is returned as it is (checked later).
 */
export function bodyFromWire<T>(ctx: RequestContext, body: T): T {
  if (ctx.options.wireId === '_id' || typeof body !== 'object' || body === null || Array.isArray(body)) {
    return body;
  }
  const keys = Object.keys(body);
  if (!keys.some(isWireId)) return body;
  if (keys.some(isStoreId)) {
    throw storeError(
      'invalid_body',
      'body: "id" and "_id" name the same field (the id); send it once, as "id".',
    );
  }
  const out: Document = Object.create(null);
  for (const key of keys) out[isWireId(key) ? `_${key}` : key] = (body as Document)[key];
  return out as T;
}
