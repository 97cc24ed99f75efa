import { describe, expect, it } from 'vitest';
import { type AccessApi, type Caller, startAccess } from './access-fixtures';
import { type EventClient, openEvents, type StreamEvent } from './event-client';
import type { Start } from './fixtures';

/** Each event as `<type> <_id>`, to compare sequences at a glance. */
const shown = (events: StreamEvent[]) =>
  events.map(({ event, data }) => `${event} ${(data as { _id?: unknown })._id}`);

/** Waits until `count` events arrived, then a moment more: an extra event would show. */
async function exactly(client: EventClient, count: number): Promise<string[]> {
  await client.waitFor(count);
  await new Promise((resolve) => setTimeout(resolve, 100));
  return shown(client.events);
}

function subscribe(access: AccessApi, caller: Caller, path: string, headers: Record<string, string> = {}) {
  return openEvents(`${access.api.url}${path}`, { ...access.headers(caller), ...headers });
}

async function write(access: AccessApi, caller: Caller, method: string, path: string, json?: unknown) {
  const reply = await access.send(caller, method, path, json);
  expect(reply.status, `${caller} ${method} ${path}: ${reply.text}`).toBeLessThan(300);
  return reply;
}

/** Change events over Server-Sent Events, per subscriber's access. */
export function realtimeTests(start: Start): void {
  describe('change events', () => {
    it('sends an anonymous subscriber of a public resource every change, in order, with increasing ids', async () => {
      const access = await startAccess(start);
      const events = await subscribe(access, 'anonymous', '/open');
      expect(events.status).toBe(200);
      expect(events.headers.get('content-type')).toMatch(/^text\/event-stream/);
      await write(access, 'ada', 'POST', '/open', { _id: 'o2', title: 'new' });
      await write(access, 'bob', 'PATCH', '/open/a1', { title: 'changed' });
      await write(access, 'bob', 'DELETE', '/open/b1');
      expect(await exactly(events, 3)).toEqual(['created o2', 'updated a1', 'deleted b1']);
      expect(events.events[0]?.data).toMatchObject({ _id: 'o2', title: 'new' });
      expect(events.events[1]?.data).toMatchObject({ _id: 'a1', title: 'changed' });
      expect(events.events[2]?.data).toEqual({ _id: 'b1' });
      const seqs = events.events.map(({ id }) => Number(id?.split('-')[1]));
      expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
      expect(new Set(events.events.map(({ id }) => id)).size).toBe(3);
      events.close();
    });

    it("sends an owner only their own documents' events, never another user's", async () => {
      const access = await startAccess(start);
      const ada = await subscribe(access, 'ada', '/notes');
      const bob = await subscribe(access, 'bob', '/notes');
      await write(access, 'bob', 'POST', '/notes', { _id: 'b2', title: 'bob two' });
      await write(access, 'ada', 'POST', '/notes', { _id: 'a2', title: 'ada two' });
      await write(access, 'bob', 'PATCH', '/notes/b1', { title: 'bob edits' });
      await write(access, 'ada', 'PATCH', '/notes/a1', { title: 'ada edits' });
      await write(access, 'bob', 'DELETE', '/notes/b2');
      await write(access, 'ada', 'DELETE', '/notes/a2');
      expect(await exactly(ada, 3)).toEqual(['created a2', 'updated a1', 'deleted a2']);
      expect(await exactly(bob, 3)).toEqual(['created b2', 'updated b1', 'deleted b2']);
      expect(JSON.stringify(ada.events)).not.toContain('bob');
      ada.close();
      bob.close();
    });

    it('answers 401 to an anonymous subscriber of an owner resource, as a read would', async () => {
      const access = await startAccess(start);
      const events = await subscribe(access, 'anonymous', '/notes');
      expect(events.status).toBe(401);
      expect(JSON.parse(await events.text())).toMatchObject({ code: 'unauthorized' });
    });

    it('sends deleted when an update takes a document out of the filter, and updated when one enters it', async () => {
      const access = await startAccess(start);
      const events = await subscribe(access, 'ada', '/notes?title=ada');
      await write(access, 'ada', 'PATCH', '/notes/a1', { title: 'renamed' });
      await write(access, 'ada', 'POST', '/notes', { _id: 'a3', title: 'other' });
      await write(access, 'ada', 'PATCH', '/notes/a1', { title: 'ada' });
      await write(access, 'ada', 'POST', '/notes', { _id: 'a4', title: 'ada' });
      expect(await exactly(events, 3)).toEqual(['deleted a1', 'updated a1', 'created a4']);
      events.close();
    });

    it('applies a function rule per event (team red sees team red only)', async () => {
      const access = await startAccess(start);
      const ada = await subscribe(access, 'ada', '/team-tasks');
      await write(access, 'bob', 'POST', '/team-tasks', { _id: 't-blue', title: 'blue' });
      await write(access, 'ada', 'POST', '/team-tasks', { _id: 't-red', title: 'red' });
      expect(await exactly(ada, 1)).toEqual(['created t-red']);
      ada.close();
    });

    it('shows documents as a read does: $select applies, hidden fields never appear', async () => {
      const access = await startAccess(start, { open: { access: 'public', hidden: ['secret'] } });
      const events = await subscribe(access, 'anonymous', '/open?$select=_id,title,secret');
      await write(access, 'ada', 'POST', '/open', { _id: 'o3', title: 't', body: 'b', secret: 's' });
      await events.waitFor(1);
      expect(events.events[0]?.data).toEqual({ _id: 'o3', title: 't' });
      events.close();
    });

    it('sends the events of bulk writes, one per document', async () => {
      const access = await startAccess(start);
      const events = await subscribe(access, 'anonymous', '/open');
      await write(access, 'ada', 'POST', '/open', [
        { _id: 'x1', tag: 'bulk' },
        { _id: 'x2', tag: 'bulk' },
      ]);
      await write(access, 'ada', 'PATCH', '/open?tag=bulk', { done: true });
      await write(access, 'ada', 'DELETE', '/open?tag=bulk');
      const sent = await exactly(events, 6);
      expect(sent.slice(0, 2)).toEqual(['created x1', 'created x2']);
      expect(sent.slice(2, 4).sort()).toEqual(['updated x1', 'updated x2']);
      expect(sent.slice(4).sort()).toEqual(['deleted x1', 'deleted x2']);
      events.close();
    });

    it('refuses $populate, $fill, $search and geo:near on a stream with 400 invalid_query', async () => {
      const access = await startAccess(start);
      for (const query of ['$populate=comments', '$fill=folders', '$search=x', 'loc:geo:near=[2.35,48.85]']) {
        const events = await subscribe(access, 'ada', `/notes?${query}`);
        expect(events.status, query).toBe(400);
        expect(JSON.parse(await events.text())).toMatchObject({ code: 'invalid_query' });
      }
    });
  });

  describe('reconnects, limits and keep-alive', () => {
    it('replays the changes after Last-Event-ID, then goes on live', async () => {
      const access = await startAccess(start);
      const first = await subscribe(access, 'ada', '/notes');
      await write(access, 'ada', 'PATCH', '/notes/a1', { title: 'one' });
      const [seen] = await first.waitFor(1);
      first.close();
      await write(access, 'ada', 'POST', '/notes', { _id: 'a5', title: 'while away' });
      await write(access, 'bob', 'POST', '/notes', { _id: 'b5', title: 'not ada' });
      await write(access, 'ada', 'PATCH', '/notes/a1', { title: 'two' });
      const again = await subscribe(access, 'ada', '/notes', { 'last-event-id': seen?.id as string });
      await again.waitFor(2);
      await write(access, 'ada', 'DELETE', '/notes/a5');
      expect(await exactly(again, 3)).toEqual(['created a5', 'updated a1', 'deleted a5']);
      again.close();
    });

    it('sends reset first for an id it cannot resume from', async () => {
      const access = await startAccess(start);
      const events = await subscribe(access, 'ada', '/notes', { 'last-event-id': 'feedbeef-12' });
      await write(access, 'ada', 'PATCH', '/notes/a1', { title: 'after' });
      await events.waitFor(2);
      expect(events.events.map(({ event }) => event)).toEqual(['reset', 'updated']);
      events.close();
    });

    it('answers 503 too_many_subscribers past realtime.maxSubscribers, and has room again once one leaves', async () => {
      const access = await startAccess(start, {}, { realtime: { maxSubscribers: 2 } });
      const open = [await subscribe(access, 'ada', '/notes'), await subscribe(access, 'bob', '/notes')];
      const refused = await subscribe(access, 'ada', '/open');
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('5');
      expect(JSON.parse(await refused.text())).toMatchObject({ code: 'too_many_subscribers' });
      open[0]?.close();
      await expect
        .poll(async () => {
          const next = await subscribe(access, 'ada', '/open');
          next.close();
          return next.status;
        })
        .toBe(200);
      open[1]?.close();
    });

    it('writes a comment line every keepAliveSeconds', async () => {
      const access = await startAccess(start, {}, { realtime: { keepAliveSeconds: 1 } });
      const events = await subscribe(access, 'ada', '/notes');
      await expect.poll(() => events.comments, { timeout: 3000 }).toContain('keep-alive');
      expect(events.comments[0]).toBe('connected');
      events.close();
    });

    it('drops a reader that falls behind with a final dropped event, in order before it', async () => {
      const access = await startAccess(start, {}, { realtime: { maxQueuedBytes: 16_384 } });
      const slow = await openEvents(`${access.api.url}/open`);
      slow.pause();
      // 15 MB of events: more than the socket buffers of both ends and the store's 16 kB queue hold.
      const text = 'x'.repeat(60_000);
      for (let i = 0; i < 250; i++) {
        await write(access, 'ada', 'POST', '/open', { _id: `big${i}`, text });
      }
      slow.resume();
      await slow.ended;
      const last = slow.events.at(-1);
      expect(last).toMatchObject({ event: 'dropped', data: { code: 'slow_consumer' } });
      const created = slow.events.slice(0, -1).map(({ data }) => (data as { _id: string })._id);
      expect(created.length).toBeLessThan(250);
      expect(created).toEqual(created.map((_, i) => `big${i}`));
    });
  });
}
