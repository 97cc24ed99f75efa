/**
 * Who may open another event stream: at most `maxStreamsPerClient` per client (its session,
 * else its address: `clientKeyOf`), at most `maxSubscribers` in all, of which anonymous readers
 * together hold at most the share `signedInShare` leaves them.
 */
import { storeError } from '../model/error-codes';
import type { ResolvedRealtime } from '../model/options';

/** Seconds a refused client is told to wait (`Retry-After`). */
const RETRY_AFTER_SECONDS = 5;

/** The options the slots count by. */
export type StreamLimits = Pick<ResolvedRealtime, 'maxSubscribers' | 'maxStreamsPerClient' | 'signedInShare'>;

const retryAfter = { headers: { 'retry-after': String(RETRY_AFTER_SECONDS) } };

/** The most streams anonymous readers hold together (floating noise such as `0.30000000000000004` rounded off first). */
function anonymousCap({ maxSubscribers, signedInShare }: StreamLimits): number {
  return Math.floor(Math.round(maxSubscribers * (1 - signedInShare) * 1e6) / 1e6);
}

export class StreamSlots {
  /** Streams held, by client key; a key holding none is not kept. */
  readonly #held = new Map<string, number>();
  readonly #anonymousCap: number;
  #size = 0;
  #anonymous = 0;

  constructor(private readonly limits: StreamLimits) {
    this.#anonymousCap = anonymousCap(limits);
  }

  /** Open streams in all. */
  get size(): number {
    return this.#size;
  }

  /** Open streams of anonymous readers. */
  get anonymous(): number {
    return this.#anonymous;
  }

  /** Clients holding at least one stream. */
  get clients(): number {
    return this.#held.size;
  }

  /** Streams `clientKey` holds. */
  heldBy(clientKey: string): number {
    return this.#held.get(clientKey) ?? 0;
  }

  /**
   * Takes a slot for one stream of `clientKey`, or throws: 429 `too_many_streams` when the client
   * holds `maxStreamsPerClient`, 503 `too_many_subscribers` when the store holds `maxSubscribers`,
   * 429 `too_many_streams` when an anonymous reader finds the anonymous share full; each with
   * `Retry-After`. Returns the release, to call when the stream ends (more calls do nothing).
   */
  take(clientKey: string, signedIn: boolean): () => void {
    const held = this.heldBy(clientKey);
    const { maxStreamsPerClient, maxSubscribers } = this.limits;
    if (held >= maxStreamsPerClient) {
      throw storeError(
        'too_many_streams',
        `This client holds ${maxStreamsPerClient} event streams, the most allowed (realtime.maxStreamsPerClient); close one first.`,
        retryAfter,
      );
    }
    if (this.#size >= maxSubscribers) {
      throw storeError(
        'too_many_subscribers',
        'The store has no room for another event stream now.',
        retryAfter,
      );
    }
    if (!signedIn && this.#anonymous >= this.#anonymousCap) {
      throw storeError(
        'too_many_streams',
        'Anonymous readers hold every event stream kept for them (realtime.signedInShare); sign in, or retry later.',
        retryAfter,
      );
    }
    this.#held.set(clientKey, held + 1);
    this.#size += 1;
    if (!signedIn) this.#anonymous += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#give(clientKey, signedIn);
    };
  }

  #give(clientKey: string, signedIn: boolean): void {
    const held = this.heldBy(clientKey) - 1;
    if (held > 0) this.#held.set(clientKey, held);
    else this.#held.delete(clientKey);
    this.#size -= 1;
    if (!signedIn) this.#anonymous -= 1;
  }
}
