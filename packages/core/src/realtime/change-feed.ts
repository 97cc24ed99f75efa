/**
 * The change feed of one store: numbers every change, keeps the last `replayEvents` for
 * reconnects, and hands each change to the subscribers of its collection that could match it.
 * Changes come from the store's own writes ({@link publishingDb}) and, on a MongoDB replica set,
 * from a change stream ({@link ChangeSource}) for other processes' writes.
 */
import { randomBytes } from 'node:crypto';
import { storeError } from '../http/error-codes';
import type { RequestSession } from '../model/hooks';
import type { StoreLogger } from '../model/http';
import type { ResolvedRealtime } from '../model/options';
import type { EndedSessions } from '../model/plugin';
import type { Change, NumberedChange } from './change';
import { commentBytes, EventStream, eventBytes } from './event-stream';
import { idKeyOf } from './equality-keys';
import { localWrites } from './local-writes';
import type { RenderCache, Subscriber } from './subscriber';
import { SubscriberIndex } from './subscriber-index';

/** Writes of other processes, when the database can tell (a MongoDB change stream). */
export interface ChangeSource {
  /** Starts listening; resolves to a stop function, or `undefined` when the database cannot stream changes. */
  start(publish: (change: Change) => void): Promise<(() => Promise<void>) | undefined>;
}

/** How long a collection stays watched after its last subscriber left: a reconnect within it resumes. */
const LINGER_MS = 60_000;

/** Seconds a client is told to wait when the store has no room for another stream. */
const FULL_RETRY_AFTER_SECONDS = 5;

interface Watch {
  readonly index: SubscriberIndex<Subscriber>;
  /** The first seq published while this collection was (and has stayed) watched. */
  watchedFrom: number;
  /** When the collection stops being watched, once it has no subscriber; `0` while it has some. */
  lingerUntil: number;
}

/** The change stream, once asked for: `stop` once it runs. */
interface SourceState {
  starting?: Promise<void>;
  stop?: () => Promise<void>;
}

/** Where a reconnect resumes: the changes to replay, or `undefined` when the gap cannot be filled. */
interface Resume {
  readonly changes: readonly NumberedChange[];
}

export class ChangeFeed {
  /** Distinguishes this process's event ids from another's (or a previous run's). */
  readonly epoch = randomBytes(4).toString('hex');
  readonly #watches = new Map<string, Watch>();
  readonly #streams = new Map<Subscriber, EventStream>();
  readonly #recent: NumberedChange[] = [];
  readonly #local = localWrites();
  #seq = 0;
  #timer: NodeJS.Timeout | undefined;
  #source: SourceState | undefined;
  /** Per subscriber, events go out in order: an async render (`afterRead`) holds the ones after it. */
  readonly #pending = new Map<Subscriber, Promise<void>>();
  #closed = false;

  #sourceOf: ChangeSource | undefined;
  #sessionCheck: ((sessions: readonly RequestSession[]) => Promise<readonly boolean[]>) | undefined;

  constructor(
    private readonly options: ResolvedRealtime,
    private readonly logger: StoreLogger,
  ) {}

  /** Listens to `source` too (from the first subscriber on): storage calls it once the database is open. */
  useSource(source: ChangeSource): void {
    this.#sourceOf = source;
    if (this.#streams.size > 0) this.#startSource();
  }

  /** Whether writes to `collection` must be published (someone subscribes, or did a moment ago). */
  watching(collection: string): boolean {
    const watch = this.#watches.get(collection);
    if (watch === undefined) return false;
    if (watch.index.size > 0 || Date.now() < watch.lingerUntil) return true;
    this.#watches.delete(collection);
    return false;
  }

  /** Numbers `change`, keeps it for replay and delivers it (a write of this process). */
  publish(change: Change): void {
    if (this.#closed) return;
    if (this.#source?.stop !== undefined) this.#local.remember(change);
    this.#deliver(change);
  }

  /** A change a change stream reported: skipped when it is this process's own, already published. */
  #publishRemote = (change: Change): void => {
    if (this.#closed || this.#local.claim(change) || !this.watching(change.collection)) return;
    this.#deliver(change);
  };

  #deliver(change: Change): void {
    const numbered: NumberedChange = { ...change, seq: ++this.#seq };
    this.#recent.push(numbered);
    if (this.#recent.length > this.options.replayEvents) this.#recent.shift();
    const watch = this.#watches.get(change.collection);
    if (watch === undefined) return;
    const cache: RenderCache = new Map();
    const candidates =
      change.before === undefined && change.after === null
        ? watch.index.all()
        : watch.index.candidates([change.before, change.after]);
    for (const subscriber of candidates) this.#send(subscriber, numbered, cache);
  }

  #send(subscriber: Subscriber, change: NumberedChange, cache: RenderCache): void {
    const stream = this.#streams.get(subscriber);
    if (stream === undefined || stream.ended) return;
    const type = subscriber.eventFor(change);
    if (type === undefined) return;
    const id = `${this.epoch}-${change.seq}`;
    const queued = this.#pending.get(subscriber);
    if (queued === undefined) {
      const bytes = subscriber.render(change, type, id, cache);
      if (bytes instanceof Promise) this.#chain(subscriber, stream, bytes);
      else stream.write(bytes);
      return;
    }
    this.#chain(
      subscriber,
      stream,
      queued.then(() => subscriber.render(change, type, id, cache)),
    );
  }

  #chain(subscriber: Subscriber, stream: EventStream, bytes: Promise<Uint8Array>): void {
    const next = bytes.then(
      (rendered) => stream.write(rendered),
      (error: unknown) => {
        this.logger.error('[@store/core] an event could not be rendered; its stream ends', error);
        stream.end('dropped', { code: 'internal', message: 'An event could not be rendered; reconnect.' });
      },
    );
    this.#pending.set(subscriber, next);
    next.then(() => {
      if (this.#pending.get(subscriber) === next) this.#pending.delete(subscriber);
    });
  }

  /** The changes after `lastEventId`, or `undefined` when some may be missing (another process, too old, unwatched). */
  #resume(lastEventId: string, watch: Watch | undefined): Resume | undefined {
    const [epoch, seqText] = lastEventId.split('-');
    const seq = Number(seqText);
    if (epoch !== this.epoch || !Number.isSafeInteger(seq) || seq < 0 || seq > this.#seq) return undefined;
    // Writes before `watchedFrom` were not recorded (nobody watched): an id from then cannot resume.
    if (watch === undefined || seq < watch.watchedFrom) return undefined;
    const oldest = this.#recent[0]?.seq ?? this.#seq + 1;
    if (seq + 1 < oldest) return undefined;
    return { changes: this.#recent.filter((change) => change.seq > seq) };
  }

  /**
   * Opens `subscriber`'s stream: 503 `too_many_subscribers` past `maxSubscribers`. With
   * `lastEventId`, the changes since are replayed first, or a `reset` event says the client
   * must read again.
   */
  subscribe(subscriber: Subscriber, lastEventId: string | undefined): ReadableStream<Uint8Array> {
    if (this.#closed || this.#streams.size >= this.options.maxSubscribers) {
      throw storeError('too_many_subscribers', 'The store has no room for another event stream now.', {
        headers: { 'retry-after': String(FULL_RETRY_AFTER_SECONDS) },
      });
    }
    const stream = new EventStream(this.options.maxQueuedBytes, () => this.#unsubscribe(subscriber));
    const { collection } = subscriber;
    const watched = this.watching(collection) ? this.#watches.get(collection) : undefined;
    const watch = watched ?? {
      index: new SubscriberIndex<Subscriber>(),
      watchedFrom: this.#seq + 1,
      lingerUntil: 0,
    };
    this.#watches.set(collection, watch);
    this.#streams.set(subscriber, stream);
    stream.write(commentBytes('connected'));
    if (lastEventId !== undefined) {
      const resume = this.#resume(lastEventId, watched);
      if (resume === undefined) {
        stream.write(eventReset(`${this.epoch}-${this.#seq}`));
      } else {
        const cache: RenderCache = new Map();
        for (const change of resume.changes) this.#send(subscriber, change, cache);
      }
    }
    watch.index.add(subscriber);
    watch.lingerUntil = 0;
    this.#startTimer();
    this.#startSource();
    return stream.stream;
  }

  #unsubscribe(subscriber: Subscriber): void {
    if (!this.#streams.delete(subscriber)) return;
    this.#pending.delete(subscriber);
    const watch = this.#watches.get(subscriber.collection);
    watch?.index.delete(subscriber);
    if (watch !== undefined && watch.index.size === 0) watch.lingerUntil = Date.now() + LINGER_MS;
    if (this.#streams.size === 0 && this.#timer !== undefined) {
      clearInterval(this.#timer);
      this.#timer = undefined;
    }
  }

  /** One timer for every stream: a comment line each `keepAliveSeconds`, and the end of streams whose session expired. */
  #startTimer(): void {
    if (this.#timer !== undefined) return;
    this.#timer = setInterval(() => {
      const now = Date.now();
      const comment = commentBytes('keep-alive');
      for (const [subscriber, stream] of this.#streams) {
        if (subscriber.expired(now)) {
          stream.end('dropped', { code: 'unauthorized', message: 'The session expired; sign in again.' });
        } else {
          stream.write(comment);
        }
      }
    }, this.options.keepAliveSeconds * 1000);
    this.#timer.unref();
  }

  #startSource(): void {
    if (this.#sourceOf === undefined || this.#source !== undefined) return;
    const state: SourceState = {};
    this.#source = state;
    state.starting = this.#sourceOf.start(this.#publishRemote).then(
      (stop) => {
        if (stop === undefined) return;
        if (this.#closed) return void stop();
        state.stop = stop;
      },
      (error: unknown) =>
        this.logger.warn(
          "[@store/core] change stream not started; only this process's writes reach subscribers",
          error,
        ),
    );
  }

  /**
   * How sessions are checked at each keep-alive (ended in another process): the plugin that
   * found them answers, for each, whether it is still live.
   */
  useSessionCheck(check: (sessions: readonly RequestSession[]) => Promise<readonly boolean[]>): void {
    this.#sessionCheck = check;
  }

  /** Ends at once, with `dropped` `unauthorized`, the streams opened with a session that ended. */
  endSessions(ended: EndedSessions): void {
    const ids = new Set(ended.sessionIds ?? []);
    const userKey = ended.userId === undefined ? undefined : idKeyOf(ended.userId);
    for (const [subscriber, stream] of [...this.#streams]) {
      const session = subscriber.ctx.session;
      if (session === null) continue;
      const named = session.id !== undefined && ids.has(session.id);
      if (named || (userKey !== undefined && idKeyOf(session.user._id) === userKey)) {
        stream.end('dropped', SESSION_ENDED);
      }
    }
  }

  /** Ends every stream and stops listening (the store is closing). */
  async close(): Promise<void> {
    this.#closed = true;
    for (const stream of [...this.#streams.values()]) stream.end();
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
    await this.#source?.starting;
    await this.#source?.stop?.();
  }
}

const SESSION_ENDED = { code: 'unauthorized', message: 'The session ended; sign in again.' };

/** The `reset` event: changes were missed, read again; its id is where the stream now stands. */
const eventReset = (id: string): Uint8Array =>
  eventBytes('reset', { message: 'Changes were missed: read the list again.' }, id);
