/**
 * Compiled query strings, kept by raw string: requests repeat a few query strings (the page a
 * UI asks for, its filters), and compiling one again costs more than looking it up. A compiled
 * query is shared by every request that sends its string, so it is deep-frozen when kept (hooks
 * receive it as it is, `hooks/hook-context.ts`); a string that does not compile is not
 * kept, and throws its 400 every time. At most `QUERY_CACHE_SIZE` strings per store; past it
 * the one kept longest goes first.
 */
import { isPlainObject } from '@store/common';
import { compileQuery, foreignParameters, type QueryOptions } from '@store/query';
import type { StoreQuery } from '../model/context';
import type { StoreRequest } from '../model/http';
import type { ResolvedStoreOptions } from '../model/options';
import type { ResolvedResource } from '../model/resource';
import { checkForeignParameters, compileDialectQuery, readsRangeHeader } from './dialect-reading';

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

/** A compiled query string, and the names of other dialects' parameters it holds (store's own dialect only). */
interface Kept {
  readonly query: StoreQuery;
  readonly foreign: readonly string[];
}

const NONE: readonly string[] = Object.freeze([]);

/**
 * A bounded, per-store cache of `compileQuery` with the store's limits, reading the query through
 * the foreign dialects the store has on (`dialects`); with none on, the names of other dialects'
 * parameters it holds are kept with it, checked per request against the resource's fields.
 */
export class QueryCache {
  readonly #options: QueryOptions;
  /** The store's options, when its dialects apply (absent: the store's own dialect only). */
  readonly #store: ResolvedStoreOptions | undefined;
  readonly #compiled = new Map<string, Kept>();

  constructor(options: QueryOptions, store?: ResolvedStoreOptions) {
    this.#options = options;
    this.#store = store;
  }

  #compile(request: StoreRequest, rawQuery: string): Kept {
    const store = this.#store;
    if (store?.dialects.foreign) {
      return { query: compileDialectQuery(request, store, this.#options), foreign: NONE };
    }
    const query = compileQuery(rawQuery, this.#options);
    const foreign = foreignParameters(rawQuery);
    return { query, foreign: foreign.length === 0 ? NONE : foreign };
  }

  /** Whether `query` is that of a request with no query string (and no `Range` header it reads). */
  isBare(query: StoreQuery): boolean {
    return this.#compiled.get('')?.query === query;
  }

  /**
   * The compiled query string of `request`, frozen; throws the query's 400 for a bad one, and
   * the 400 `foreign_dialect_parameter` for a parameter of a dialect that is off, unless
   * `resource` (the resource the query lists) declares a field of its name.
   */
  of(request: StoreRequest, resource?: ResolvedResource): StoreQuery {
    const raw = request.rawQuery;
    const rawQuery = raw.startsWith('?') ? raw.slice(1) : raw;
    const range = this.#store === undefined ? undefined : readsRangeHeader(this.#store, request);
    const key = range === undefined ? rawQuery : `${rawQuery}\n${range}`;
    let kept = this.#compiled.get(key);
    if (kept === undefined) {
      kept = deepFreeze(this.#compile(request, rawQuery));
      if (this.#compiled.size >= QUERY_CACHE_SIZE) {
        this.#compiled.delete(this.#compiled.keys().next().value as string);
      }
      this.#compiled.set(key, kept);
    }
    if (kept.foreign.length > 0 && resource !== undefined) checkForeignParameters(kept.foreign, resource);
    return kept.query;
  }
}
