/**
 * The property behind resuming a stream with `Last-Event-ID`: whatever the writes (create, patch,
 * delete, across an open, an owner-only and a hidden-field resource) and wherever a stream is cut
 * and resumed from its last id, the events a stream received, applied to a map, give the list a
 * final `GET` returns. Part of `realtime-trust.suite.ts`.
 */
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { type AccessApi, type Caller, startAccess } from './access-fixtures';
import type { EventClient, StreamEvent } from './event-client';
import type { Start } from './fixtures';
import type { JsonObject } from './harness';
import {
  expectIncreasing,
  idOf,
  placeOf,
  readAll,
  resumingAt,
  settle,
  shown,
  subscribe,
  through,
  write,
} from './realtime-steps';

const LISTS = ['p-open', 'p-notes', 'p-hidden'] as const;
type List = (typeof LISTS)[number];

const RESOURCES = {
  'p-open': { access: 'public' },
  'p-notes': { access: 'owner' },
  'p-hidden': { access: 'public', hidden: ['secret', 'cards.cvv'] },
};

/** The streams of each run: who reads which list, with which extra filter. */
const STREAMS: readonly { caller: Caller; list: List; filter: string }[] = [
  { caller: 'anonymous', list: 'p-open', filter: '' },
  { caller: 'anonymous', list: 'p-open', filter: '&tag=a' },
  { caller: 'ada', list: 'p-notes', filter: '' },
  { caller: 'bob', list: 'p-notes', filter: '' },
  { caller: 'anonymous', list: 'p-hidden', filter: '' },
];

type Writer = 'ada' | 'bob';
interface WriteStep {
  kind: 'write';
  list: number;
  slot: number;
  by: Writer;
  tag: 'a' | 'b';
  action: 'create' | 'patch' | 'delete';
}
interface CutStep {
  kind: 'cut';
  stream: number;
  /** Steps played before the stream reconnects (0: before the next one). */
  gap: number;
}
type Step = WriteStep | CutStep;

const writeStep: fc.Arbitrary<Step> = fc.record({
  kind: fc.constant('write' as const),
  list: fc.integer({ min: 0, max: LISTS.length - 1 }),
  slot: fc.integer({ min: 0, max: 3 }),
  by: fc.constantFrom<Writer>('ada', 'bob'),
  tag: fc.constantFrom<'a' | 'b'>('a', 'b'),
  action: fc.constantFrom<WriteStep['action']>('create', 'patch', 'delete'),
});
const cutStep: fc.Arbitrary<Step> = fc.record({
  kind: fc.constant('cut' as const),
  stream: fc.integer({ min: 0, max: STREAMS.length - 1 }),
  gap: fc.integer({ min: 0, max: 6 }),
});
const steps = fc.array(fc.oneof({ arbitrary: writeStep, weight: 4 }, { arbitrary: cutStep, weight: 1 }), {
  minLength: 20,
  maxLength: 40,
});

/** One stream over its whole life: each connection's client, and when it comes back from a cut. */
interface Watched {
  readonly caller: Caller;
  readonly list: List;
  readonly path: string;
  readonly connections: EventClient[];
  backAt: number | undefined;
}

/** A run's documents: `v` counts each document's writes (never reset, across deletes too). */
class Run {
  readonly #versions = new Map<string, number>();
  readonly #live = new Set<string>();
  readonly streams: Watched[];

  constructor(
    private readonly access: AccessApi,
    readonly name: string,
  ) {
    this.streams = STREAMS.map(({ caller, list, filter }) => ({
      caller,
      list,
      path: `/${list}?run=${name}${filter}`,
      connections: [],
      backAt: undefined,
    }));
  }

  /** The id of a document: the list, the run, its writer when the list is owner-only, and a slot. */
  idOf(list: List, by: Writer, slot: number | string): string {
    return list === 'p-notes' ? `${list}-${this.name}-${by}-${slot}` : `${list}-${this.name}-${slot}`;
  }

  /** Writes a new version of the document `id`: created when absent, else patched or deleted. */
  async write(list: List, by: Writer, id: string, tag: 'a' | 'b', remove = false): Promise<void> {
    if (remove && this.#live.has(id)) {
      this.#live.delete(id);
      await write(this.access, by, 'DELETE', `/${list}/${id}`);
      return;
    }
    const v = (this.#versions.get(id) ?? 0) + 1;
    this.#versions.set(id, v);
    const secrets =
      list === 'p-hidden' ? { secret: `secret-${id}-${v}`, cards: [{ v, cvv: `cvv-${id}-${v}` }] } : {};
    const body = { run: this.name, tag, v, ...secrets };
    if (this.#live.has(id)) {
      await write(this.access, by, 'PATCH', `/${list}/${id}`, body);
    } else {
      this.#live.add(id);
      await write(this.access, by, 'POST', `/${list}`, { _id: id, ...body });
    }
  }

  async connect(stream: Watched): Promise<void> {
    // As `EventSource` does: the last id of the stream's whole life, whichever connection read it.
    const place = stream.connections.map(placeOf).findLast((id) => id !== undefined);
    const headers = stream.connections.length === 0 ? {} : resumingAt(place);
    const client = await subscribe(this.access, stream.caller, stream.path, headers);
    expect(client.status, stream.path).toBe(200);
    stream.connections.push(client);
    stream.backAt = undefined;
  }

  /** Writes one document per list and writer that every stream sees, and waits until each has it. */
  async mark(slot: string): Promise<void> {
    for (const list of LISTS) {
      for (const by of list === 'p-notes' ? (['ada', 'bob'] as const) : (['ada'] as const)) {
        await this.write(list, by, this.idOf(list, by, slot), 'a');
      }
    }
    for (const stream of this.streams) {
      const client = stream.connections.at(-1) as EventClient;
      const by = stream.caller === 'bob' ? 'bob' : 'ada';
      await through(client, this.idOf(stream.list, by, slot));
    }
  }
}

async function play(run: Run, plan: readonly Step[]): Promise<void> {
  for (const stream of run.streams) await run.connect(stream);
  await run.mark('anchor');
  for (const [at, step] of plan.entries()) {
    for (const stream of run.streams)
      if (stream.backAt !== undefined && stream.backAt <= at) await run.connect(stream);
    if (step.kind === 'cut') {
      const stream = run.streams[step.stream] as Watched;
      if (stream.backAt !== undefined) continue;
      stream.connections.at(-1)?.close();
      stream.backAt = at + step.gap;
      continue;
    }
    const list = LISTS[step.list] as List;
    await run.write(list, step.by, run.idOf(list, step.by, step.slot), step.tag, step.action === 'delete');
  }
  for (const stream of run.streams) if (stream.backAt !== undefined) await run.connect(stream);
  await run.mark('marker');
  await settle(50);
}

/** The events' documents by `_id`: created and updated set, deleted removes; a `reset` re-reads. */
async function applied(access: AccessApi, stream: Watched, events: readonly StreamEvent[]) {
  const docs = new Map<string, unknown>();
  for (const event of events) {
    const id = String(idOf(event));
    if (event.event === 'created' || event.event === 'updated') docs.set(id, event.data);
    else if (event.event === 'deleted') docs.delete(id);
    else if (event.event === 'reset') {
      docs.clear();
      for (const doc of await readAll(access, stream.caller, stream.path)) docs.set(String(doc._id), doc);
    }
  }
  return docs;
}

const byId = (docs: Iterable<unknown>) =>
  [...docs].sort((a, b) => String((a as JsonObject)._id).localeCompare(String((b as JsonObject)._id)));

async function check(access: AccessApi, run: Run): Promise<void> {
  for (const stream of run.streams) {
    const events = stream.connections.flatMap((client) => client.events);
    const what = `${stream.caller} ${stream.path}: ${shown(events).join(', ')}`;
    expect(
      events.filter(({ event }) => !['created', 'updated', 'deleted'].includes(event)),
      what,
    ).toEqual([]);
    expectIncreasing(events.map(({ id }) => id));
    const own = run.idOf(stream.list, stream.caller as Writer, '');
    expect(events.filter((event) => !String(idOf(event)).startsWith(own)).map(idOf), what).toEqual([]);
    expect(JSON.stringify(events), what).not.toMatch(/secret-|cvv-/);
    const seen = new Map<string, number>();
    for (const event of events) {
      const v = (event.data as JsonObject).v;
      if (typeof v !== 'number') continue;
      const id = String(idOf(event));
      expect(v, `${id}'s v in ${what}`).toBeGreaterThanOrEqual(seen.get(id) ?? 0);
      seen.set(id, v);
    }
    const docs = await applied(access, stream, events);
    expect(byId(docs.values()), what).toEqual(byId(await readAll(access, stream.caller, stream.path)));
  }
}

/** Random writes and random cuts and resumes: each stream adds up to its list's final `GET`. */
export function realtimeResumeProperty(start: Start): void {
  it('adds up, for every stream cut and resumed anywhere, to the final GET of its list: nothing lost, foreign, hidden or older', async () => {
    const access = await startAccess(start, RESOURCES);
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(steps, async (plan) => {
        const run = new Run(access, `r${++runs}`);
        try {
          await play(run, plan);
          await check(access, run);
        } finally {
          for (const stream of run.streams) for (const client of stream.connections) client.close();
        }
      }),
      { numRuns: 12, endOnFailure: true },
    );
  }, 90_000);
}
