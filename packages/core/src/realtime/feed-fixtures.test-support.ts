/** What the feed's tests share: a store's options, readers of a path, reading a stream's queue. */
import { createEmbeddedDb } from '@store/embedded';
import { vi } from 'vitest';
import { requestFilter } from '../access/filters';
import { authorize } from '../access/grant';
import { createContext } from '../access/request-context';
import { resolveStoreOptions } from '../config/options';
import { matchRoute } from '../handler/router';
import { QueryCache } from '../http/query-cache';
import type { StoreConfig } from '../model/config';
import { loadMatching, Subscriber } from './subscriber';

/** The store of the feed's tests: owner-only `notes`, public `posts`, `accounts` with hidden fields. */
export function feedStore(config: StoreConfig = {}) {
  const options = resolveStoreOptions({
    resources: {
      notes: { access: 'owner' },
      posts: { access: 'public' },
      accounts: { access: 'public', hidden: ['pin'] },
    },
    logger: { error: vi.fn(), warn: vi.fn() },
    ...config,
  });
  return { options, realtime: options.realtime as NonNullable<typeof options.realtime> };
}

export const { options, realtime } = feedStore();

/** A subscriber of `path` (`/notes?...`) for user `userId` (or nobody). */
export async function subscriber(path: string, userId?: string, storeOptions = options): Promise<Subscriber> {
  const [pathname, rawQuery = ''] = path.split('?');
  const request = { method: 'GET', path: pathname as string, rawQuery, headers: {} };
  const session =
    userId === undefined ? null : { user: { _id: userId }, expiresAt: new Date(Date.now() + 60_000) };
  const match = matchRoute(request.path, storeOptions);
  if (match === undefined) throw new Error(`no route ${path}`);
  const query = new QueryCache(storeOptions).of(request);
  const ctx = await authorize(
    createContext(request, storeOptions, createEmbeddedDb(), match, query, session),
  );
  return new Subscriber(ctx, requestFilter(ctx), await loadMatching());
}

/** Reads what a stream has queued so far, as text. */
export async function queuedText(stream: ReadableStream<Uint8Array>): Promise<string> {
  const reader = stream.getReader();
  let text = '';
  for (;;) {
    const next = await Promise.race([
      reader.read(),
      new Promise<undefined>((r) => setTimeout(() => r(undefined), 20)),
    ]);
    if (next === undefined || next.done) break;
    text += new TextDecoder().decode(next.value);
  }
  reader.releaseLock();
  return text;
}

/** The last `id:` of a stream's text. */
export const lastId = (text: string) => [...text.matchAll(/^id: (.+)$/gm)].at(-1)?.[1] as string;

/** Reads what a stream has queued so far, as event types and ids. */
export async function queued(stream: ReadableStream<Uint8Array>): Promise<string[]> {
  return eventsOf(await queuedText(stream));
}

export function eventsOf(text: string): string[] {
  return [...text.matchAll(/event: (\w+)\ndata: (.*)\n/g)].map(([, type, data]) => {
    const id = (JSON.parse(data as string) as { _id?: unknown })._id;
    return id === undefined ? (type as string) : `${type} ${id}`;
  });
}
