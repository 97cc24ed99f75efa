/**
 * Change events (issue 27): a stream never shows a reader more than
 * a `GET` would, and a reconnect with `Last-Event-ID` replays the stream's own list, each
 * document at most once and in its current state, losing and repeating nothing. The sessions
 * and slots cases are in `realtime-slots.suite.ts`, the property test in
 * `realtime-resume.property.ts`.
 */
import { describe, expect, it } from 'vitest';
import { startAccess } from './access-fixtures';
import type { Start } from './fixtures';
import type { JsonObject } from './harness';
import { realtimeResumeProperty } from './realtime-resume.property';
import { realtimeSlotTests } from './realtime-slots.suite';
import {
  expectIncreasing,
  idOf,
  readOne,
  resumingAt,
  settle,
  shown,
  subscribe,
  through,
  upserts,
  write,
} from './realtime-steps';

/** Moves a user to `team`, as the fixture sets teams: `team-tasks`' rule reads it at each request. */
const joinTeam = (access: Awaited<ReturnType<typeof startAccess>>, email: string, team: string) =>
  access.api.db.collection('users').updateOne({ email }, { $set: { team } });

/** The events of changes: a replay the store can make whole has neither `reset` nor `dropped`. */
const CHANGES = new Set(['created', 'updated', 'deleted']);

function replayTests(start: Start): void {
  it("replays to a reader of an open list only that list's changes, never another collection's", async () => {
    const access = await startAccess(start);
    // Ada watches her owner-only notes all along, as an app of hers would.
    const adaNotes = await subscribe(access, 'ada', '/notes');
    const first = await subscribe(access, 'anonymous', '/open');
    await write(access, 'ada', 'POST', '/open', { _id: 'o-seen', title: 'seen live' });
    const [seen] = await first.waitFor(1);
    first.close();
    await write(access, 'ada', 'POST', '/notes', { _id: 'n-private', title: 'ada private' });
    await write(access, 'ada', 'PATCH', '/notes/a1', { title: 'ada private edit' });
    await write(access, 'ada', 'POST', '/open', { _id: 'o-away', title: 'while away' });
    await write(access, 'ada', 'DELETE', '/notes/n-private');
    await adaNotes.waitFor(3);
    const again = await subscribe(access, 'anonymous', '/open', resumingAt(seen?.id));
    await write(access, 'ada', 'POST', '/open', { _id: 'o-marker', title: 'live' });
    await through(again, 'o-marker');
    await settle();
    expect(upserts(again.events)).toEqual(['upsert o-away', 'upsert o-marker']);
    expect(JSON.stringify(again.events)).not.toContain('ada private');
    expectIncreasing(
      again.events.map(({ id }) => id),
      seen?.id,
    );
    adaNotes.close();
    again.close();
  });

  it('never replays hidden fields (top-level or in array elements), and shows a replayed document as a GET does', async () => {
    const access = await startAccess(start, { wallets: { access: 'public', hidden: ['pin', 'cards.cvv'] } });
    const watcher = await subscribe(access, 'anonymous', '/wallets');
    const openReader = await subscribe(access, 'anonymous', '/open');
    const walletReader = await subscribe(access, 'anonymous', '/wallets');
    await write(access, 'ada', 'POST', '/open', { _id: 'o-seen', title: 'seen' });
    const card = (number: string, cvv: string) => ({ number, cvv });
    await write(access, 'ada', 'POST', '/wallets', { _id: 'w0', owner: 'ada', pin: 'pin-0000', cards: [] });
    const [openSeen] = await openReader.waitFor(1);
    const [walletSeen] = await walletReader.waitFor(1);
    openReader.close();
    walletReader.close();
    await write(access, 'ada', 'POST', '/wallets', {
      _id: 'w1',
      owner: 'ada',
      pin: 'pin-1111',
      cards: [card('4111', 'cvv-111'), card('5500', 'cvv-555')],
    });
    await write(access, 'ada', 'POST', '/open', { _id: 'o-away', title: 'while away' });
    await write(access, 'ada', 'PATCH', '/wallets/w1', { pin: 'pin-2222', cards: [card('4111', 'cvv-222')] });
    await watcher.waitFor(3);
    const openAgain = await subscribe(access, 'anonymous', '/open', resumingAt(openSeen?.id));
    const walletAgain = await subscribe(access, 'anonymous', '/wallets', resumingAt(walletSeen?.id));
    await write(access, 'ada', 'POST', '/open', { _id: 'o-marker' });
    await write(access, 'ada', 'POST', '/wallets', {
      _id: 'w-marker',
      pin: 'pin-9',
      cards: [card('1', 'cvv-9')],
    });
    await through(openAgain, 'o-marker');
    await through(walletAgain, 'w-marker');
    await settle();
    for (const client of [openAgain, walletAgain, watcher]) {
      expect(JSON.stringify(client.events)).not.toMatch(/pin-|cvv-|"pin"|"cvv"/);
    }
    expect(upserts(openAgain.events)).toEqual(['upsert o-away', 'upsert o-marker']);
    const current = await readOne(access, 'anonymous', '/wallets/w1');
    expect(current.cards).toEqual([{ number: '4111' }]);
    const replayed = walletAgain.events.filter((event) => idOf(event) === 'w1');
    expect(replayed.map(({ data }) => data)).toEqual([current]);
    expect(shown(walletAgain.events).slice(1)).toEqual(['created w-marker']);
    for (const client of [watcher, openAgain, walletAgain]) client.close();
  });

  it('replays, after the reader gained access, only current states and deletes it may see: never an earlier version', async () => {
    const access = await startAccess(start);
    const first = await subscribe(access, 'bob', '/team-tasks');
    await write(access, 'bob', 'POST', '/team-tasks', { _id: 't-blue-0', title: 'blue, seen live' });
    const [seen] = await first.waitFor(1);
    first.close();
    // While bob (team blue) is away: red tasks change, one carrying a secret it then loses.
    await write(access, 'ada', 'POST', '/team-tasks', {
      _id: 't-red-1',
      title: 'first',
      note: 'early-secret',
    });
    await write(access, 'ada', 'PATCH', '/team-tasks/t-red-1', { title: 'second', note: 'rewritten' });
    await write(access, 'ada', 'PATCH', '/team-tasks/a1', { title: 'ada edits' });
    await write(access, 'ada', 'POST', '/team-tasks', { _id: 't-red-gone', title: 'soon gone' });
    await write(access, 'ada', 'DELETE', '/team-tasks/t-red-gone');
    await write(access, 'bob', 'POST', '/team-tasks', { _id: 't-blue-1', title: 'blue, away' });
    await write(access, 'bob', 'DELETE', '/team-tasks/t-blue-1');
    await joinTeam(access, 'bob@example.test', 'red');
    const again = await subscribe(access, 'bob', '/team-tasks', resumingAt(seen?.id));
    await write(access, 'ada', 'POST', '/team-tasks', { _id: 't-red-marker', title: 'live' });
    const replayed = (await through(again, 't-red-marker')).slice(0, -1);
    await settle();
    expect(JSON.stringify(again.events)).not.toContain('early-secret');
    expect(
      again.events.every(({ event }) => CHANGES.has(event)),
      shown(again.events).join(', '),
    ).toBe(true);
    const changed = replayed.filter(({ event }) => event !== 'deleted');
    expect(changed.map(idOf).sort()).toEqual(['a1', 't-red-1']);
    for (const event of changed) {
      expect(event.data).toEqual(await readOne(access, 'bob', `/team-tasks/${String(idOf(event))}`));
    }
    const deleted = replayed.filter(({ event }) => event === 'deleted').map(idOf);
    expect(deleted.filter((id) => id !== 't-red-gone')).toEqual([]);
    expect(again.events.length).toBe(replayed.length + 1);
    expectIncreasing(
      again.events.map(({ id }) => id),
      seen?.id,
    );
    again.close();
  });

  it.each([
    ['with no other reader', false],
    ['while another reader keeps the list watched', true],
  ])('resumes %s: the changes missed once each, in order, then live ones', async (_title, watched) => {
    const access = await startAccess(start);
    const keeper = watched ? await subscribe(access, 'anonymous', '/open') : undefined;
    const reader = await subscribe(access, 'anonymous', '/open');
    await write(access, 'ada', 'POST', '/open', { _id: 'm1', n: 1 });
    await write(access, 'ada', 'POST', '/open', { _id: 'm2', n: 1 });
    const [, m2] = await reader.waitFor(2);
    reader.close();
    await write(access, 'ada', 'POST', '/open', { _id: 'm3', n: 1 });
    await write(access, 'ada', 'PATCH', '/open/m3', { n: 2 });
    await write(access, 'bob', 'POST', '/open', { _id: 'm4', n: 1 });
    const again = await subscribe(access, 'anonymous', '/open', resumingAt(m2?.id));
    await write(access, 'ada', 'POST', '/open', { _id: 'm5', n: 1 });
    await through(again, 'm5');
    await settle();
    expect(upserts(again.events)).toEqual(['upsert m3', 'upsert m4', 'upsert m5']);
    expect(again.events[2]?.event).toBe('created');
    expect(again.events.map(({ data }) => (data as JsonObject).n)).toEqual([2, 1, 1]);
    expectIncreasing(
      again.events.map(({ id }) => id),
      m2?.id,
    );
    again.close();
    keeper?.close();
  });
}

function largeDocumentTests(start: Start): void {
  it('delivers a ~300 KB document to five readers, live and replayed, and drops none of them', async () => {
    const access = await startAccess(start);
    const readers = await Promise.all(
      Array.from({ length: 5 }, () => subscribe(access, 'anonymous', '/open')),
    );
    const text = 'x'.repeat(300_000);
    await write(access, 'ada', 'POST', '/open', { _id: 'big', text });
    for (const reader of readers) await reader.waitFor(1);
    await settle();
    for (const reader of readers) {
      expect(shown(reader.events)).toEqual(['created big']);
      expect(reader.events[0]?.data).toMatchObject({ text });
    }
    const [away, ...staying] = readers;
    away?.close();
    const names = ['big-0', 'big-1', 'big-2', 'big-3', 'big-4'];
    for (const name of names) await write(access, 'ada', 'POST', '/open', { _id: name, text });
    const again = await subscribe(access, 'anonymous', '/open', resumingAt(away?.events[0]?.id));
    await write(access, 'ada', 'POST', '/open', { _id: 'marker' });
    for (const client of [again, ...staying]) await through(client, 'marker');
    await settle();
    expect(upserts(again.events)).toEqual([...names, 'marker'].map((name) => `upsert ${name}`));
    expect(again.events.slice(0, -1).every(({ data }) => (data as JsonObject).text === text)).toBe(true);
    for (const reader of staying) {
      expect(shown(reader.events)).toEqual(['big', ...names, 'marker'].map((name) => `created ${name}`));
    }
    for (const client of [again, ...staying]) client.close();
  });
}

/** Issue 27's cases over HTTP: registered by `suite.ts` on every adapter and engine. */
export function realtimeTrustTests(start: Start): void {
  describe('change events a reader can trust', () => {
    describe('reconnecting with Last-Event-ID', () => replayTests(start));
    describe('large documents', () => largeDocumentTests(start));
    describe('sessions and stream slots', () => realtimeSlotTests(start));
    describe('any writes, any reconnects (property)', () => realtimeResumeProperty(start));
  });
}
