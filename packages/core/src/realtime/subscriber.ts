/**
 * One subscriber: its request context (access rule already granted), the filter it receives
 * changes for, and how it sees a document. Decides, per change, which event (if any) it gets.
 */
import type { Document } from '@store/common';
import { clientKeyOf } from '../http/client-key';
import type { RequestContext } from '../model/context';
import { presentOne } from '../read/present';
import { wireKey } from '../read/wire-id';
import type { EventType, NumberedChange } from './change';
import { type EqualityClause, equalityClause } from './equality-keys';
import { eventBytes } from './event-stream';
import type { DocumentChanges } from './replay-log';

/** Rendered events of one change, shared by readers that see documents the same way. */
export type RenderCache = Map<string, Uint8Array>;

/**
 * MongoDB's matching and projection on documents in memory: the embedded engine's, loaded with
 * the first stream (an application on MongoDB loads the engine only if it serves events).
 */
export type DocumentMatching = Pick<typeof import('@store/embedded'), 'documentTest' | 'projectDocument'>;

let matching: Promise<DocumentMatching> | undefined;

/** {@link DocumentMatching}, imported once. */
export function loadMatching(): Promise<DocumentMatching> {
  matching ??= import('@store/embedded');
  return matching;
}

/** Whose stream it is, for the slots: its session, else its address (`clientKeyOf`). */
export interface StreamClient {
  readonly key: string;
  readonly signedIn: boolean;
}

export class Subscriber {
  readonly clause: EqualityClause | undefined;
  readonly client: StreamClient;
  readonly collection: string;
  readonly #matches: (doc: Document) => boolean;
  readonly #readable: (doc: Document) => boolean;
  readonly #openAccess: boolean;
  /**
   * The render cache's keys of this subscriber's `created` and `updated` events: one per way of
   * seeing documents; `undefined` when `afterRead` may differ per user.
   */
  readonly #viewKeys: Readonly<Record<'created' | 'updated', string>> | undefined;
  readonly #project: DocumentMatching['projectDocument'];

  /** `filter`: the request's whole filter (access rule, soft delete, query); throws on one the engine cannot test. */
  constructor(
    readonly ctx: RequestContext,
    filter: Document,
    { documentTest, projectDocument }: DocumentMatching,
  ) {
    this.collection = ctx.resource.collection;
    this.client = {
      key: clientKeyOf(ctx.request, ctx.session, ctx.options.trustedProxies),
      signedIn: ctx.session !== null,
    };
    this.#matches = documentTest(filter);
    this.#readable = documentTest(ctx.access.filter);
    this.#project = projectDocument;
    this.#openAccess = Object.keys(ctx.access.filter).length === 0;
    this.clause = equalityClause(filter);
    const view = `${ctx.resource.name}\u0000${JSON.stringify(ctx.query.projection ?? null)}`;
    this.#viewKeys =
      ctx.resource.hooks.afterRead === undefined
        ? { created: `created\u0000${view}`, updated: `updated\u0000${view}` }
        : undefined;
  }

  /**
   * The event of a live change, checked then rendered (`undefined`: none for this reader):
   * `created`/`updated` when the document matches after the write, `deleted` when it matched
   * before and no longer does (or is gone). When the document before is unknown (another
   * process's write on a change stream without pre-images), `deleted` goes only to readers that
   * could still read the document, or that read everything. `cache` shares the bytes of this
   * change between readers that see documents the same way.
   */
  live(change: NumberedChange, id: string, cache: RenderCache): Uint8Array | Promise<Uint8Array> | undefined {
    const { kind, before, after } = change;
    if (after !== null && this.#matches(after)) {
      return this.#render(kind === 'insert' ? 'created' : 'updated', change.id, after, id, cache);
    }
    if (kind === 'insert') return undefined;
    const sawBefore =
      before === undefined
        ? after === null
          ? this.#openAccess
          : this.#readable(after)
        : before !== null && this.#matches(before);
    return sawBefore ? this.#render('deleted', change.id, null, id, cache) : undefined;
  }

  /**
   * The event that catches a reconnecting reader up on one document (checked now, with the
   * reader's access now; rendered when the reader gets to it): its current state when it
   * matches (`created` when it did not exist at the reader's id), else `deleted` when the
   * version the reader could last have seen, or the document's last version, matches now.
   * Never an older version.
   */
  catchUp(
    { first, last }: DocumentChanges,
    id: string,
  ): (() => Uint8Array | Promise<Uint8Array>) | undefined {
    const now = last.after;
    if (now !== null && this.#matches(now)) {
      const type = first.kind === 'insert' ? 'created' : 'updated';
      return () => this.#render(type, last.id, now, id, new Map());
    }
    const lastVersion = now ?? last.before;
    const versions = [first.before, lastVersion];
    const known = versions.filter((doc): doc is Document => doc !== null && doc !== undefined);
    const couldSee =
      known.length > 0
        ? known.some((doc) => this.#matches(doc))
        : lastVersion === undefined && this.#openAccess;
    return couldSee ? () => this.#render('deleted', last.id, null, id, new Map()) : undefined;
  }

  /** The bytes of `type` for the document as this reader reads it (`afterRead` may make it async). */
  #render(
    type: EventType,
    documentId: unknown,
    doc: Document | null,
    id: string,
    cache: RenderCache,
  ): Uint8Array | Promise<Uint8Array> {
    const key = type === 'deleted' ? 'deleted' : this.#viewKeys?.[type];
    const cached = key === undefined ? undefined : cache.get(key);
    if (cached !== undefined) return cached;
    const done = (data: unknown) => {
      const bytes = eventBytes(type, data, id);
      if (key !== undefined) cache.set(key, bytes);
      return bytes;
    };
    if (doc === null) return done(wireKey(this.ctx.options, documentId));
    const { projection } = this.ctx.query;
    const shown = presentOne(this.ctx, projection === undefined ? doc : this.#project(doc, projection));
    return shown instanceof Promise ? shown.then(done) : done(shown);
  }
}
