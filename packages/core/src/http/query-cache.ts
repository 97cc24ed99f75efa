/**
 * Compiled query strings, kept by raw string: requests repeat a few query strings (the page a
 * UI asks for, its filters), and compiling one again costs more than looking it up. A compiled
 * query is shared by every request that sends its string, so it is deep-frozen when kept (hooks
 * receive it as it is, `hooks/hook-context.ts`); a string that does not compile is not
 * kept, and throws its 400 every time. At most `QUERY_CACHE_SIZE` strings per store; past it
 * the one kept longest goes first.
 */
import { isPlainObject } from '@store/common';
import { type CompiledQuery, compileQuery, type QueryOptions } from '@store/query';
import type { StoreRequest } from '../model/http';

export const QUERY_CACHE_SIZE = 1000;

/**
 * Freezes plain objects and arrays all the way down (ObjectIds, RegExps and Dates are left as
 * they are); a frozen one was frozen whole already.
 */
function deepFreeze<T>(value: T): T {
  if ((Array.isArray(value) || isPlainObject(value)) && !Object.isFrozen(value)) {
    for (const child of Object.values(value as object)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

/** A bounded, per-store cache of `compileQuery` with the store's limits. */
export class QueryCache {
  readonly #options: QueryOptions;
  readonly #compiled = new Map<string, CompiledQuery>();

  constructor(options: QueryOptions) {
    this.#options = options;
  }

  /** The compiled query string of `request`, frozen; throws the query's 400 for a bad one. */
  of(request: StoreRequest): CompiledQuery {
    const raw = request.rawQuery;
    const rawQuery = raw.startsWith('?') ? raw.slice(1) : raw;
    const kept = this.#compiled.get(rawQuery);
    if (kept !== undefined) return kept;
    const compiled = deepFreeze(compileQuery(rawQuery, this.#options));
    if (this.#compiled.size >= QUERY_CACHE_SIZE) {
      this.#compiled.delete(this.#compiled.keys().next().value as string);
    }
    this.#compiled.set(rawQuery, compiled);
    return compiled;
  }
}
