/**
 * One subscriber's Server-Sent Events stream: a web `ReadableStream` of bytes (every adapter
 * writes one), with a bounded queue. A reader that falls behind by more than `maxQueuedBytes`
 * gets a final `dropped` event and the stream ends: memory per subscriber stays bounded.
 */

const encoder = new TextEncoder();

/** The bytes of one event: `id:`, `event:` and one `data:` line (JSON holds no raw newline). */
export function eventBytes(type: string, data: unknown, id?: string): Uint8Array {
  const idLine = id === undefined ? '' : `id: ${id}\n`;
  return encoder.encode(`${idLine}event: ${type}\ndata: ${JSON.stringify(data)}\n\n`);
}

/** A comment line: ignored by `EventSource`, it keeps proxies from closing an idle stream. */
export const commentBytes = (text: string): Uint8Array => encoder.encode(`: ${text}\n\n`);

export class EventStream {
  readonly stream: ReadableStream<Uint8Array>;
  #controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  #ended = false;

  /** `onEnd` runs once, when the stream ends for any reason (closed, dropped, cancelled by the reader). */
  constructor(
    private readonly maxQueuedBytes: number,
    private readonly onEnd: () => void,
  ) {
    this.stream = new ReadableStream<Uint8Array>(
      {
        start: (controller) => {
          this.#controller = controller;
        },
        cancel: () => this.#finish(),
      },
      { highWaterMark: maxQueuedBytes, size: (chunk) => chunk.byteLength },
    );
  }

  get ended(): boolean {
    return this.#ended;
  }

  /** Queues `bytes`; past the bound, ends the stream with a `dropped` event instead. */
  write(bytes: Uint8Array): void {
    const controller = this.#controller;
    if (this.#ended || controller === undefined) return;
    if ((controller.desiredSize ?? 0) < bytes.byteLength) {
      this.end('dropped', {
        code: 'slow_consumer',
        message: `The reader fell more than ${this.maxQueuedBytes} bytes behind; reconnect to resume.`,
      });
      return;
    }
    controller.enqueue(bytes);
  }

  /** Ends the stream, after a last event when given (past the bound: it is the reader's last). */
  end(type?: string, data?: unknown): void {
    const controller = this.#controller;
    if (this.#ended || controller === undefined) return;
    if (type !== undefined) controller.enqueue(eventBytes(type, data));
    controller.close();
    this.#finish();
  }

  #finish(): void {
    if (this.#ended) return;
    this.#ended = true;
    this.onEnd();
  }
}
