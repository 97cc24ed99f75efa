/**
 * Steps the realtime trust suites share: open a stream as a caller, write and expect success,
 * read a stream up to a marker document, read a whole list, sign a user in once more.
 */
import { expect } from 'vitest';
import type { AccessApi, Caller } from './access-fixtures';
import { bearer } from './auth-fixtures';
import { type EventClient, openEvents, type StreamEvent } from './event-client';
import { asArray, asString, field, type JsonObject } from './harness';

/** The `_id` an event's data carries (`undefined` for `reset` and `dropped`). */
export const idOf = (event: StreamEvent): unknown => (event.data as { _id?: unknown } | null)?._id;

/** Each event as `<type> <_id>`, to compare sequences at a glance. */
export const shown = (events: readonly StreamEvent[]): string[] =>
  events.map((event) => `${event.event} ${String(idOf(event))}`);

/**
 * Each event as {@link shown}, `created` and `updated` both as `upsert`: a document changed while
 * the reader was away may be replayed as either, in its current state.
 */
export const upserts = (events: readonly StreamEvent[]): string[] =>
  shown(events).map((line) => line.replace(/^(created|updated) /, 'upsert '));

/** Opens `path` as a stream with `headers` (a session's bearer token, `Last-Event-ID`). */
export const openAs = (access: AccessApi, path: string, headers: Record<string, string>) =>
  openEvents(`${access.api.url}${path}`, headers);

/** Opens `path` as a stream as `caller`, with `headers` added. */
export const subscribe = (
  access: AccessApi,
  caller: Caller,
  path: string,
  headers: Record<string, string> = {},
): Promise<EventClient> => openAs(access, path, { ...access.headers(caller), ...headers });

/** `Last-Event-ID: <id>`; fails the test when there is no id to resume from. */
export function resumingAt(id: string | undefined): Record<string, string> {
  expect(id, 'an id to resume from').toEqual(expect.any(String));
  return { 'last-event-id': id as string };
}

/**
 * Where a browser's `EventSource` would resume: the last `id:` the client read (an id alone
 * included), else the id of the last event received.
 */
export const placeOf = (client: EventClient): string | undefined =>
  client.lastEventId ?? client.events.findLast((e) => e.id)?.id;

/** Sends a request as `caller` and expects a 2xx answer. */
export async function write(access: AccessApi, caller: Caller, method: string, path: string, json?: unknown) {
  const reply = await access.send(caller, method, path, json);
  expect(reply.status, `${caller} ${method} ${path}: ${reply.text}`).toBeLessThan(300);
  return reply;
}

/**
 * The events of `client` up to and including the first about document `id` (a marker written
 * after everything else: events arrive in order, so all earlier ones are in by then).
 */
export async function through(client: EventClient, id: string): Promise<StreamEvent[]> {
  const at = () => client.events.findIndex((event) => idOf(event) === id);
  while (at() === -1) await client.waitFor(client.events.length + 1);
  return client.events.slice(0, at() + 1);
}

/** Waits until `count` events arrived, then a moment more (an extra one would show), and shows them. */
export async function exactly(client: EventClient, count: number): Promise<string[]> {
  await client.waitFor(count);
  await settle();
  return shown(client.events);
}

/** A short pause: time for an event that should not come to show up. */
export const settle = (ms = 100) => new Promise((resolve) => setTimeout(resolve, ms));

/** `<epoch>-<sequence>` of an event id, for comparing ids of one process. */
function placeParts(id: string | undefined): { epoch: string; seq: number } {
  const found = /^(.+)-(\d+)$/.exec(id ?? '');
  expect(found, `an event id <process>-<sequence>, got ${id}`).not.toBeNull();
  return { epoch: found?.[1] ?? '', seq: Number(found?.[2]) };
}

/** Asserts the ids strictly increase (one process, growing sequence), each above `after` when given. */
export function expectIncreasing(ids: readonly (string | undefined)[], after?: string): void {
  const all = after === undefined ? ids : [after, ...ids];
  const parts = all.map(placeParts);
  expect(new Set(parts.map(({ epoch }) => epoch)).size, `one process: ${all.join(', ')}`).toBeLessThanOrEqual(
    1,
  );
  const seqs = parts.map(({ seq }) => seq);
  for (let i = 1; i < seqs.length; i++) {
    expect(seqs[i], `ids strictly increase: ${all.join(', ')}`).toBeGreaterThan(seqs[i - 1] as number);
  }
}

/** `GET <path>` as `caller`: every document (one page of up to 1000). */
export async function readAll(access: AccessApi, caller: Caller, path: string): Promise<JsonObject[]> {
  const reply = await access.send(caller, 'GET', `${path}${path.includes('?') ? '&' : '?'}$limit=1000`);
  expect(reply.status, reply.text).toBe(200);
  return asArray(reply.json) as JsonObject[];
}

/** `GET <path>` of one document as `caller`: its body. */
export async function readOne(access: AccessApi, caller: Caller, path: string): Promise<JsonObject> {
  const reply = await access.send(caller, 'GET', path);
  expect(reply.status, reply.text).toBe(200);
  return reply.json as JsonObject;
}

/** Signs `email` in once more with a mailed code: the headers of that new session. */
export async function anotherSession(access: AccessApi, email: string): Promise<Record<string, string>> {
  const { api } = access;
  await api.send('POST', '/auth/magic-code/', { json: { email } });
  const verified = await api.send('POST', '/auth/magic-code/verify', {
    json: { email, code: api.mailbox.codeTo(email) },
  });
  expect(verified.status, verified.text).toBe(200);
  return bearer(asString(field(verified.json, 'token')));
}
