/**
 * Answers of `GET /<res>/<id>` the store keeps, so a document read again while its collection is
 * unchanged costs a lookup, not a read, a serialization and a hash. An answer is kept only where
 * it depends on nothing but the collection's documents and the resource's configuration:
 *
 * - the engine tells when the collection changed (`contentVersion`: the embedded engine, whose
 *   number changes at every write, drop, rename and TTL expiry, by the store or by any other code
 *   of the process); on MongoDB, which other clients write, nothing is kept;
 * - no query string and no `Range` header: no `$select`, relation, dialect expansion or flag;
 * - the access grant adds no filter: a `public` or `authenticated` rule, or an access function
 *   that answered `true`; not an owner rule, a function's filter, `beforeRead`'s filter or soft
 *   delete. The rule and `beforeRead` still run on every request, before the lookup, so a
 *   request they refuse is refused as before;
 * - the resource has no `afterRead` hook.
 *
 * A kept answer is used only while the collection holds the version it had before the read that
 * made it (a write during that read changes the version, so its answer is never used). Its size
 * is checked against the request's `budgets.answerBytes` as a fresh one is. At most
 * {@link KEPT_BYTES_AT_MOST} bytes are kept per store, answers of at most
 * {@link KEPT_ANSWER_AT_MOST} bytes each; past that the one kept longest goes first.
 */
import type { Document } from '@store/common';
import type { JsonText } from '../http/respond';
import type { RequestContext } from '../model/context';

/** Bytes of answers (with {@link ENTRY_OVERHEAD} each) a store keeps at most. */
export const KEPT_BYTES_AT_MOST = 8 * 1024 * 1024;
/** The largest answer kept, in bytes: larger ones are rarer, and their read costs less than their serialization. */
export const KEPT_ANSWER_AT_MOST = 16 * 1024;
/** What an entry costs besides its body and key (the entry object, the `Map` slot), counted against the bound. */
const ENTRY_OVERHEAD = 128;
/** An `_id` lookup examines at most two documents (a path segment names at most two stored ids). */
const ID_LOOKUP_EXAMINES_AT_MOST = 2;

const isEmpty = (filter: Document): boolean => {
  for (const _ in filter) return false;
  return true;
};

/** Where one request's answer is kept: its key, and its collection's version before the read. */
export interface AnswerSlot {
  readonly key: string;
  readonly version: number;
}

/** A kept answer: its JSON text and its `ETag`, valid while its collection holds `version`. */
export interface KeptAnswer extends JsonText {
  readonly version: number;
  readonly etag: string;
}

/** One store's kept answers; see the module comment. */
export class DocumentAnswers {
  readonly #kept = new Map<string, KeptAnswer>();
  #bytes = 0;

  /**
   * Where `ctx`'s answer is kept, when it may be (see the module comment; `bareQuery`: the
   * request has no query string and no `Range` header); `undefined` otherwise. Reads the
   * collection's version, so it must be called before the route reads.
   */
  slot(ctx: RequestContext, bareQuery: boolean): AnswerSlot | undefined {
    const { route, resource, method } = ctx;
    if (route.kind !== 'document' || (method !== 'GET' && method !== 'HEAD') || !bareQuery) return undefined;
    if (resource.hooks.afterRead !== undefined || !isEmpty(ctx.access.filter)) return undefined;
    // A budget of one examined document refuses a lookup that finds two ids: read as before.
    if (ctx.budgets !== undefined && ctx.budgets.examined < ID_LOOKUP_EXAMINES_AT_MOST) return undefined;
    const version = ctx.collection.contentVersion?.();
    return version === undefined ? undefined : { key: `${resource.name}/${route.id}`, version };
  }

  /** The answer kept in `slot`, while its collection still holds the version it was read at. */
  find(slot: AnswerSlot): KeptAnswer | undefined {
    const kept = this.#kept.get(slot.key);
    return kept?.version === slot.version ? kept : undefined;
  }

  /** Keeps the answer `text` with its `etag`, read at `slot`'s version (too large an answer is not kept). */
  keep(slot: AnswerSlot, text: JsonText, etag: string): void {
    const cost = (answer: KeptAnswer, key: string) => answer.bytes + key.length + ENTRY_OVERHEAD;
    const before = this.#kept.get(slot.key);
    if (before !== undefined) {
      this.#kept.delete(slot.key);
      this.#bytes -= cost(before, slot.key);
    }
    if (text.bytes > KEPT_ANSWER_AT_MOST) return;
    const answer: KeptAnswer = { body: text.body, bytes: text.bytes, version: slot.version, etag };
    this.#bytes += cost(answer, slot.key);
    this.#kept.set(slot.key, answer);
    for (const [key, oldest] of this.#kept) {
      if (this.#bytes <= KEPT_BYTES_AT_MOST) break;
      this.#kept.delete(key);
      this.#bytes -= cost(oldest, key);
    }
  }

  /** How many answers are kept, and their bytes as counted against the bound (for tests). */
  get size(): { answers: number; bytes: number } {
    return { answers: this.#kept.size, bytes: this.#bytes };
  }
}
