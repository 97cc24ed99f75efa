/**
 * One subscriber's Server-Sent Events stream: a web `ReadableStream` of bytes (every adapter
 * writes one) over a queue of its own, handed to the reader one event per read.
 *
 * - Events in the queue go out in the order they were written, whether already rendered
 *   (bytes), being rendered (`afterRead` makes a render a promise) or rendered when read (a
 *   replay's events: {@link EventStream.writeLater}).
 * - The bytes waiting are bounded: an event written while `maxQueuedBytes` already wait ends the
 *   stream with a final `dropped` event instead (`slow_consumer`), and the reader resumes with
 *   `Last-Event-ID`. Below the bound any event fits, whatever its size, so a reader that keeps
 *   up is never dropped for a large document (a stream holds at most the bound plus one event).
 *   A replay's events count only once rendered: they hold documents the replay window holds
 *   anyway.
 * - Once it ends (dropped, closed, cancelled by the reader), the queue is let go at once and
 *   `onEnd` runs: nothing of a gone reader stays.
 */

const encoder = new TextEncoder();

/** The bytes of one event: `id:`, `event:` and one `data:` line (JSON holds no raw newline). */
export function eventBytes(type: string, data: unknown, id?: string): Uint8Array {
  const idLine = id === undefined ? '' : `id: ${id}\n`;
  return encoder.encode(`${idLine}event: ${type}\ndata: ${JSON.stringify(data)}\n\n`);
}

/**
 * An `id:` alone: no event, but `EventSource` takes it as the last event id, so a reconnect
 * resumes from there (the reader's place when it connected, or after its catch-up).
 */
export const positionBytes = (id: string): Uint8Array => encoder.encode(`id: ${id}\n\n`);

/** A comment line: ignored by `EventSource`, it keeps proxies from closing an idle stream. */
export const commentBytes = (text: string): Uint8Array => encoder.encode(`: ${text}\n\n`);

/** An event as the queue holds it. */
type Queued = Uint8Array | Promise<Uint8Array> | (() => Uint8Array | Promise<Uint8Array>);

/** An event taken off the queue: its bytes, now or once rendered, and whether they were counted as waiting. */
interface Taken {
  readonly bytes: Uint8Array | Promise<Uint8Array>;
  readonly counted: boolean;
}

/** Why a stream ended early, sent as its last event. */
export interface EndReason {
  readonly type: string;
  readonly data: { readonly code: string; readonly message: string };
}

/** Where a Node response takes events ({@link EventStream.pushTo}): `write` answers `false` while its buffer is full. */
export interface EventSink {
  write(bytes: Uint8Array): boolean;
  end(): void;
}

const RENDER_FAILED: EndReason = {
  type: 'dropped',
  data: { code: 'internal', message: 'An event could not be rendered; reconnect.' },
};

/** Where a store answer keeps its {@link EventStream}, for a Node response to take events from directly. */
export const EVENT_SOURCE = Symbol('@store/core event stream');

export class EventStream {
  #stream: ReadableStream<Uint8Array> | undefined;
  readonly #maxQueuedBytes: number;
  readonly #onEnd: () => void;
  readonly #onRenderError: (error: unknown) => void;
  #queue: Queued[] = [];
  /** Bytes of rendered events waiting in `#queue`. */
  #queuedBytes = 0;
  /** Wakes a read waiting for the next event. */
  #wake: (() => void) | undefined;
  /** The Node response events go to directly, when one took them ({@link EventStream.pushTo}). */
  #sink: EventSink | undefined;
  /** The sink's buffer is full (until `drained`), or an event for it is being rendered. */
  #sinkWaits = false;
  /** No more writes: what is queued (a last event at most) goes out, then the stream closes. */
  #ended = false;
  /** Bumped when the queue is let go: a render finishing after that is not counted. */
  #generation = 0;

  /**
   * `onEnd` runs once, when the stream ends for any reason (closed, dropped, cancelled by the
   * reader); `onRenderError` gets the error of a render that failed (the stream then ends).
   */
  constructor(options: {
    readonly maxQueuedBytes: number;
    readonly onEnd: () => void;
    readonly onRenderError: (error: unknown) => void;
  }) {
    this.#maxQueuedBytes = options.maxQueuedBytes;
    this.#onEnd = options.onEnd;
    this.#onRenderError = options.onRenderError;
  }

  /** The events as a web stream (made when first asked for: a Node response takes them {@link pushTo} instead). */
  get stream(): ReadableStream<Uint8Array> {
    if (this.#stream === undefined) {
      this.#stream = new ReadableStream<Uint8Array>(
        { pull: (controller) => this.#pull(controller), cancel: () => this.#finish([]) },
        { highWaterMark: 0 },
      );
    }
    return this.#stream;
  }

  /** Bytes of rendered events waiting for the reader. */
  get queuedBytes(): number {
    return this.#queuedBytes;
  }

  /** Queues an event (rendered, or being rendered); past the bound, ends the stream with `dropped` instead. */
  write(event: Uint8Array | Promise<Uint8Array>): void {
    if (this.#ended) return;
    if (event instanceof Uint8Array) {
      if (!this.#count(event.byteLength)) return;
    } else {
      const generation = this.#generation;
      // Counted once rendered; a reader awaiting the same promise un-counts it after this runs.
      event.then(
        (bytes) => generation === this.#generation && this.#count(bytes.byteLength),
        () => undefined,
      );
    }
    this.#push(event);
  }

  /** Queues an event rendered only when the reader gets to it (a replay's). */
  writeLater(render: () => Uint8Array | Promise<Uint8Array>): void {
    if (!this.#ended) this.#push(render);
  }

  /** Ends the stream: what is queued is let go, `reason` (when given) is the reader's last event. */
  end(reason?: EndReason): void {
    if (this.#ended) return;
    this.#finish(reason === undefined ? [] : [eventBytes(reason.type, reason.data)]);
    this.#wake?.();
    this.#flush();
  }

  /**
   * Hands events straight to `sink` (a Node response, which the store writes itself) instead of
   * through {@link stream}: the same queue and order, without a promise per event. Call
   * `drained` once the sink drained after `write` answered `false`, `cancel` when its reader left.
   */
  pushTo(sink: EventSink): { drained(): void; cancel(): void } {
    this.#sink = sink;
    this.#flush();
    return {
      drained: () => {
        this.#sinkWaits = false;
        this.#flush();
      },
      cancel: () => this.#finish([]),
    };
  }

  /** Counts `bytes` more waiting; ends the stream instead when `maxQueuedBytes` already wait. */
  #count(bytes: number): boolean {
    if (this.#queuedBytes >= this.#maxQueuedBytes) {
      this.end({
        type: 'dropped',
        data: {
          code: 'slow_consumer',
          message: `The reader fell more than ${this.#maxQueuedBytes} bytes behind; reconnect to resume.`,
        },
      });
      return false;
    }
    this.#queuedBytes += bytes;
    return true;
  }

  #push(event: Queued): void {
    this.#queue.push(event);
    if (this.#sink === undefined) this.#wake?.();
    else this.#flush();
  }

  /** The next event off the queue, or `undefined` when it is empty. */
  #take(): Taken | undefined {
    const next = this.#queue.shift();
    if (next === undefined) return undefined;
    if (typeof next !== 'function') return { bytes: next, counted: true };
    try {
      return { bytes: next(), counted: false };
    } catch (error) {
      return { bytes: Promise.reject(error), counted: false };
    }
  }

  /** The bytes of `taken` leave the queue: un-counted when they were counted. */
  #handOver(taken: Taken, bytes: Uint8Array): Uint8Array {
    if (taken.counted) this.#queuedBytes -= bytes.byteLength;
    return bytes;
  }

  #renderFailed(error: unknown): void {
    this.end(RENDER_FAILED);
    this.#onRenderError(error);
  }

  /** Hands the reader of {@link stream} its next event, waiting for one; closes once ended and emptied. */
  async #pull(controller: ReadableStreamDefaultController<Uint8Array>): Promise<void> {
    for (;;) {
      const taken = this.#take();
      if (taken === undefined) {
        if (this.#ended) return controller.close();
        await new Promise<void>((resolve) => {
          this.#wake = resolve;
        });
        this.#wake = undefined;
        continue;
      }
      const generation = this.#generation;
      let bytes: Uint8Array;
      try {
        bytes = await taken.bytes;
      } catch (error) {
        this.#renderFailed(error);
        continue;
      }
      if (generation !== this.#generation) continue;
      return controller.enqueue(this.#handOver(taken, bytes));
    }
  }

  /** Writes what is queued to the sink while it takes more; ends it once ended and emptied. */
  #flush(): void {
    const sink = this.#sink;
    while (sink !== undefined && !this.#sinkWaits) {
      const taken = this.#take();
      if (taken === undefined) {
        if (this.#ended) {
          this.#sink = undefined;
          sink.end();
        }
        return;
      }
      if (taken.bytes instanceof Uint8Array) {
        this.#sinkWaits = !sink.write(this.#handOver(taken, taken.bytes));
        continue;
      }
      this.#sinkWaits = true;
      const generation = this.#generation;
      taken.bytes.then(
        (bytes) => {
          this.#sinkWaits = false;
          if (generation === this.#generation) this.#sinkWaits = !sink.write(this.#handOver(taken, bytes));
          this.#flush();
        },
        (error: unknown) => {
          this.#sinkWaits = false;
          this.#renderFailed(error);
        },
      );
      return;
    }
  }

  #finish(last: Uint8Array[]): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#generation++;
    this.#queue = last;
    this.#queuedBytes = last.reduce((total, bytes) => total + bytes.byteLength, 0);
    this.#onEnd();
  }
}
