/**
 * The request's method, upper-cased once where the handler takes the request. Adapters may hand
 * it in either case (`fetch` upper-cases only the six methods it knows, Node all it parses);
 * past the handler's entry, core compares `request.method` as it is. A `toUpperCase` costs about
 * 25 ns, and a request asked for it up to eight times.
 */
import type { StoreRequest } from '../model/http';

const UPPER_CASE = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** `request` itself when its method is upper-case, else a view of it whose `method` is. */
export function withUpperCaseMethod(request: StoreRequest): StoreRequest {
  const { method } = request;
  if (UPPER_CASE.has(method)) return request;
  const upper = method.toUpperCase();
  if (upper === method) return request;
  // The adapter's own request behind it: its getters still run on it (a class's private fields).
  return new Proxy(request, {
    get: (target, key) => (key === 'method' ? upper : Reflect.get(target, key)),
  });
}
