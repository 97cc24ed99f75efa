/**
 * A Server-Sent Events client over `fetch`, as a browser's `EventSource` reads a stream: events
 * are parsed from the bytes as they arrive, comments kept apart. For the realtime suite.
 */
/** One event of the stream. */
export interface StreamEvent {
  id: string | undefined;
  event: string;
  data: unknown;
}

/** An open stream, or the problem answer that refused it. */
export interface EventClient {
  status: number;
  headers: Headers;
  /** Every event received so far, in order. */
  readonly events: StreamEvent[];
  /** Comment lines received so far (`connected`, `keep-alive`). */
  readonly comments: string[];
  /**
   * The id a browser's `EventSource` would send as `Last-Event-ID` on reconnecting: the last
   * `id:` line received, with an event or alone (the reader's place).
   */
  readonly lastEventId: string | undefined;
  /** Resolves when `count` events arrived; fails the test after `timeoutMs`. */
  waitFor(count: number, timeoutMs?: number): Promise<StreamEvent[]>;
  /** Resolves when the server ended the stream. */
  readonly ended: Promise<void>;
  /** Stops reading (the server's writes back up, as with a slow reader) until {@link resume}. */
  pause(): void;
  resume(): void;
  /** The body of a refused request. */
  text(): Promise<string>;
  close(): void;
}

/** Parses one block; returns its `id:` (with or without an event), if any. */
function parseBlock(block: string, events: StreamEvent[], comments: string[]): string | undefined {
  let id: string | undefined;
  let event = 'message';
  const data: string[] = [];
  for (const line of block.split('\n')) {
    if (line.startsWith(':')) comments.push(line.slice(1).trim());
    else if (line.startsWith('id: ')) id = line.slice(4);
    else if (line.startsWith('event: ')) event = line.slice(7);
    else if (line.startsWith('data: ')) data.push(line.slice(6));
  }
  if (data.length > 0) events.push({ id, event, data: JSON.parse(data.join('\n')) });
  return id;
}

/** Opens `url` with `Accept: text/event-stream` and reads it in the background. */
export async function openEvents(url: string, headers: Record<string, string> = {}): Promise<EventClient> {
  const controller = new AbortController();
  const response = await fetch(url, {
    headers: { accept: 'text/event-stream', ...headers },
    signal: controller.signal,
  });
  const events: StreamEvent[] = [];
  const comments: string[] = [];
  const waiters = new Set<() => void>();
  let paused: { done: Promise<void>; resume(): void } | undefined;
  let lastEventId: string | undefined;
  const streaming =
    response.ok && (response.headers.get('content-type') ?? '').startsWith('text/event-stream');
  const ended = (async () => {
    if (!streaming || response.body === null) return;
    const decoder = new TextDecoder();
    let buffered = '';
    try {
      for await (const chunk of response.body) {
        await paused?.done;
        buffered += decoder.decode(chunk, { stream: true });
        let end = buffered.indexOf('\n\n');
        while (end !== -1) {
          lastEventId = parseBlock(buffered.slice(0, end), events, comments) ?? lastEventId;
          buffered = buffered.slice(end + 2);
          end = buffered.indexOf('\n\n');
        }
        for (const wake of waiters) wake();
      }
    } catch {
      // Aborted by close().
    }
  })();
  return {
    status: response.status,
    headers: response.headers,
    events,
    comments,
    get lastEventId() {
      return lastEventId;
    },
    ended,
    text: () => response.text(),
    close: () => controller.abort(),
    pause() {
      let resume: () => void = () => undefined;
      const done = new Promise<void>((resolve) => {
        resume = resolve;
      });
      paused = { done, resume };
    },
    resume() {
      paused?.resume();
      paused = undefined;
    },
    waitFor(count, timeoutMs = 5000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (events.length < count) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(events.slice(0, count));
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(
            new Error(
              `expected ${count} events within ${timeoutMs} ms, got ${events.length}: ${JSON.stringify(events)}`,
            ),
          );
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
  };
}
