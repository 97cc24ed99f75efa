/**
 * The change feed of one store: numbers every change, keeps the last ones for reconnects (the
 * {@link ReplayLog}), and hands each change to the readers of its collection that could match
 * it. Changes come from the store's own writes ({@link publishingDb}) and, on a MongoDB replica
 * set, from a change stream ({@link ChangeSource}) for other processes' writes.
 *
 * Every event a reader gets, live or replayed, goes through its {@link Subscriber}'s check: its
 * own collection, its filter, its access rule and soft delete, shown as its read would show it.
 */
import { randomBytes } from 'node:crypto';
import { storeError } from '../model/error-codes';
import type { RequestSession } from '../model/hooks';
import type { StoreLogger } from '../model/http';
import { idKeyOf } from '../model/id-key';
import type { ResolvedRealtime } from '../model/options';
import type { EndedSessions } from '../model/plugin';
import type { Change, NumberedChange } from './change';
import { commentBytes, type EndReason, EventStream, eventBytes, positionBytes } from './event-stream';
import { localWrites } from './local-writes';
import { ReplayLog } from './replay-log';
import { StreamSlots } from './stream-slots';
import type { RenderCache, Subscriber } from './subscriber';
import { SubscriberIndex } from './subscriber-index';

/** Writes of other processes, when the database can tell (a MongoDB change stream). */
export interface ChangeSource {
  /** Starts listening; resolves to a stop function, or `undefined` when the database cannot stream changes. */
  start(publish: (change: Change) => void): Promise<(() => Promise<void>) | undefined>;
}

/** How long a collection stays watched after its last reader left: a reconnect within it resumes. */
const LINGER_MS = 60_000;

/** Seconds a client is told to wait when the store is closing. */
const CLOSED_RETRY_AFTER_SECONDS = 5;

const SESSION_ENDED: EndReason = {
  type: 'dropped',
  data: { code: 'unauthorized', message: 'The session ended; sign in again.' },
};

const SESSION_EXPIRED: EndReason = {
  type: 'dropped',
  data: { code: 'unauthorized', message: 'The session expired; sign in again.' },
};

interface Watch {
  readonly index: SubscriberIndex<Subscriber>;
  /**
   * The seq this watch began at (a number of its own: no change carries it). Writes before it
   * may not have been numbered (nobody watched), so an id before it cannot resume.
   */
  readonly since: number;
  /** When the collection stops being watched, once it has no reader; `0` while it has some. */
  lingerUntil: number;
}

/** The change stream, once asked for: `stop` once it runs. */
interface SourceState {
  starting?: Promise<void>;
  stop?: () => Promise<void>;
}

/** What the feed holds now (for tests and the bench). */
export interface FeedUsage {
  /** Open streams. */
  readonly streams: number;
  /** Bytes of rendered events waiting for their readers, over every stream. */
  readonly queuedBytes: number;
  /** Changes in the replay window, and the bytes of their documents. */
  readonly replayChanges: number;
  readonly replayBytes: number;
}

export class ChangeFeed {
  /** Distinguishes this process's event ids from another's (or a previous run's). */
  readonly epoch = randomBytes(4).toString('hex');
  readonly #watches = new Map<string, Watch>();
  readonly #streams = new Map<Subscriber, EventStream>();
  readonly #log: ReplayLog;
  readonly #slots: StreamSlots;
  readonly #local = localWrites();
  #seq = 0;
  #timer: NodeJS.Timeout | undefined;
  #source: SourceState | undefined;
  #closed = false;
  #sourceOf: ChangeSource | undefined;
  #sessionCheck: ((sessions: readonly RequestSession[]) => Promise<readonly boolean[]>) | undefined;
  /** Whether a session check is under way: a keep-alive skips its check while one is. */
  #checking = false;

  constructor(
    private readonly options: ResolvedRealtime,
    private readonly logger: StoreLogger,
  ) {
    this.#log = new ReplayLog(options.replayEvents, options.replayBytes);
    this.#slots = new StreamSlots(options);
  }

  /** Listens to `source` too (from the first reader on): storage calls it once the database is open. */
  useSource(source: ChangeSource): void {
    this.#sourceOf = source;
    if (this.#streams.size > 0) this.#startSource();
  }

  /** Whether writes to `collection` must be published (someone reads it, or did a moment ago). */
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
    // A literal of one shape (a spread of `change` costs as much as the rest of the delivery).
    const { collection, kind, id: documentId, before, after } = change;
    const numbered: NumberedChange = { collection, kind, id: documentId, before, after, seq: ++this.#seq };
    this.#log.add(numbered);
    const watch = this.#watches.get(collection);
    if (watch === undefined) return;
    const id = this.#eventId(numbered.seq);
    const cache: RenderCache = new Map();
    const candidates =
      before === undefined && after === null ? watch.index.all() : watch.index.candidates([before, after]);
    for (const subscriber of candidates) {
      const stream = this.#streams.get(subscriber);
      const event = stream === undefined ? undefined : subscriber.live(numbered, id, cache);
      if (event !== undefined) stream?.write(event);
    }
  }

  #eventId(seq: number): string {
    return `${this.epoch}-${seq}`;
  }

  /**
   * Catches a reconnecting reader up from `lastEventId`: one event per document of its list
   * changed since, in the order of their last change. Returns the last seq it sent (the id's own
   * when nothing changed), or `undefined` when some change may be missing: another process's or
   * a previous run's id, an id from before the collection was watched, or changes that left the
   * replay window.
   */
  #catchUp(
    subscriber: Subscriber,
    stream: EventStream,
    lastEventId: string,
    watch: Watch,
  ): number | undefined {
    const [epoch, seqText, extra] = lastEventId.split('-');
    const seq = Number(seqText);
    if (epoch !== this.epoch || extra !== undefined || !Number.isSafeInteger(seq)) return undefined;
    if (seq < watch.since || seq > this.#seq) return undefined;
    const changed = this.#log.since(seq, subscriber.collection);
    if (changed === undefined) return undefined;
    let sent = seq;
    for (const document of changed) {
      const event = subscriber.catchUp(document, this.#eventId(document.last.seq));
      if (event === undefined) continue;
      stream.writeLater(event);
      sent = document.last.seq;
    }
    return sent;
  }

  /**
   * Opens `subscriber`'s stream, in a slot of its client (429 `too_many_streams` past its cap or
   * the anonymous share, 503 `too_many_subscribers` past `maxSubscribers`). With `lastEventId`,
   * the reader is first caught up on what it missed, or gets a `reset` event (read the list
   * again) when the store cannot be sure.
   */
  subscribe(subscriber: Subscriber, lastEventId: string | undefined): EventStream {
    if (this.#closed) {
      throw storeError('too_many_subscribers', 'The store is closing.', {
        headers: { 'retry-after': String(CLOSED_RETRY_AFTER_SECONDS) },
      });
    }
    const release = this.#slots.take(subscriber.client.key, subscriber.client.signedIn);
    const stream = new EventStream({
      maxQueuedBytes: this.options.maxQueuedBytes,
      onEnd: () => {
        release();
        this.#unsubscribe(subscriber);
      },
      onRenderError: (error) =>
        this.logger.error('[@store/core] an event could not be rendered; its stream ends', error),
    });
    const watch = this.#watch(subscriber.collection);
    this.#streams.set(subscriber, stream);
    watch.index.add(subscriber);
    watch.lingerUntil = 0;
    stream.write(commentBytes('connected'));
    // From here to the end nothing awaits: no change can slip between the catch-up and live events.
    const sent = lastEventId === undefined ? 0 : this.#catchUp(subscriber, stream, lastEventId, watch);
    // The reader's place, so that a reconnect resumes from here even before any event arrived.
    if (sent === undefined) stream.write(eventReset(this.#eventId(this.#seq)));
    else if (sent < this.#seq) stream.write(positionBytes(this.#eventId(this.#seq)));
    this.#startTimer();
    this.#startSource();
    return stream;
  }

  /** The watch of `collection`, begun now when it has none (at a seq of its own). */
  #watch(collection: string): Watch {
    const watch = this.watching(collection) ? this.#watches.get(collection) : undefined;
    if (watch !== undefined) return watch;
    const started: Watch = { index: new SubscriberIndex<Subscriber>(), since: ++this.#seq, lingerUntil: 0 };
    this.#watches.set(collection, started);
    return started;
  }

  #unsubscribe(subscriber: Subscriber): void {
    if (!this.#streams.delete(subscriber)) return;
    const watch = this.#watches.get(subscriber.collection);
    watch?.index.delete(subscriber);
    if (watch !== undefined && watch.index.size === 0) watch.lingerUntil = Date.now() + LINGER_MS;
    if (this.#streams.size === 0 && this.#timer !== undefined) {
      clearInterval(this.#timer);
      this.#timer = undefined;
    }
  }

  /** What the feed holds now: streams, bytes waiting for readers, the replay window. */
  usage(): FeedUsage {
    let queuedBytes = 0;
    for (const stream of this.#streams.values()) queuedBytes += stream.queuedBytes;
    const replay = this.#log.usage;
    return {
      streams: this.#streams.size,
      queuedBytes,
      replayChanges: replay.changes,
      replayBytes: replay.bytes,
    };
  }

  /**
   * One timer for every stream: a comment line each `keepAliveSeconds`, and the end of streams
   * whose session expired or ended elsewhere ({@link ChangeFeed.useSessionCheck}).
   */
  #startTimer(): void {
    if (this.#timer !== undefined) return;
    this.#timer = setInterval(() => {
      const now = Date.now();
      this.#endStreams((session) => session.expiresAt.getTime() <= now, SESSION_EXPIRED);
      const comment = commentBytes('keep-alive');
      for (const stream of this.#streams.values()) stream.write(comment);
      this.#checkSessions();
    }, this.options.keepAliveSeconds * 1000);
    this.#timer.unref();
  }

  /**
   * Asks the session check (`useSessionCheck`) about the sessions of the open streams, each once
   * (one call), and ends the streams of those no longer live. A failed check ends nothing.
   */
  #checkSessions(): void {
    const check = this.#sessionCheck;
    if (check === undefined || this.#checking) return;
    const sessions = new Map<string | RequestSession, RequestSession>();
    for (const subscriber of this.#streams.keys()) {
      const { session } = subscriber.ctx;
      if (session !== null) sessions.set(session.id ?? session, session);
    }
    if (sessions.size === 0) return;
    const keys = [...sessions.keys()];
    this.#checking = true;
    check([...sessions.values()])
      .then(
        (live) => {
          const ended = new Set(keys.filter((_, i) => live[i] !== true));
          if (ended.size > 0) this.#endStreams((session) => ended.has(session.id ?? session), SESSION_ENDED);
        },
        (error: unknown) =>
          this.logger.warn('[@store/core] the sessions of event streams could not be checked', error),
      )
      .finally(() => {
        this.#checking = false;
      });
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
    this.#endStreams(
      (session) =>
        (session.id !== undefined && ids.has(session.id)) ||
        (userKey !== undefined && idKeyOf(session.user._id) === userKey),
      SESSION_ENDED,
    );
  }

  /** Ends, with `reason`, every stream opened with a session `ended` says is over. */
  #endStreams(ended: (session: RequestSession) => boolean, reason: EndReason): void {
    for (const [subscriber, stream] of [...this.#streams]) {
      const { session } = subscriber.ctx;
      if (session !== null && ended(session)) stream.end(reason);
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

/** The `reset` event: changes were missed, read again; its id is where the stream now stands. */
const eventReset = (id: string): Uint8Array =>
  eventBytes('reset', { message: 'Changes were missed: read the list again.' }, id);
