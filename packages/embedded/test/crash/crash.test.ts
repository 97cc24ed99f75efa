/**
 * Crashes that really crash: a child process writes to a durable
 * directory under load (eight concurrent writers, compaction included) and is killed with
 * SIGKILL at a random moment, again and again on the same directory. After each kill the
 * directory is opened and every document checked: an acknowledged write is there with its
 * acknowledged value; the one write in flight per writer is either wholly there or wholly not
 * (a group delete, one deleteMany of at most five documents, removes all of them or none: a
 * deleteMany removes its documents in batches of 512, each journaled whole); no document exists
 * that no write made. Kills in the middle of a long, sliced updateMany: sliced-crash.test.ts.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createEmbeddedDb } from '@store/embedded';
import { expect, it } from 'vitest';
import { killedWriter } from './kill-writer';

const KILLS = 55;
const writer = fileURLToPath(new URL('./writer.mjs', import.meta.url));

type State = number | 'gone';
interface Run {
  acked: Map<string, State>;
  /** Per id, the state of a write tried after its last acknowledgement, and the ids tried with it. */
  inFlight: Map<string, { state: State; with: string[] }>;
}

const parseState = (raw: string): State => (raw === 'gone' ? 'gone' : Number(raw));

/** Starts the writer and kills it with SIGKILL once it has acknowledged writes for `ms`. */
async function killedAfter(dir: string, run: number, ms: number): Promise<string> {
  return killedWriter(writer, [dir, String(run)], 'ack ', ms);
}

function replay(out: string): Run {
  const run: Run = { acked: new Map(), inFlight: new Map() };
  for (const line of out.split('\n')) {
    const [kind, list, raw] = line.split(' ');
    if ((kind !== 'try' && kind !== 'ack') || !list || !raw) continue; // a line cut by the kill
    const ids = list.split(',');
    for (const id of ids) {
      if (kind === 'try') run.inFlight.set(id, { state: parseState(raw), with: ids });
      else {
        run.acked.set(id, parseState(raw));
        run.inFlight.delete(id);
      }
    }
  }
  return run;
}

it(`keeps every acknowledged write through ${KILLS} SIGKILLs under load`, { timeout: 240_000 }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'store-crash-'));
  /** What each id must be on disk, as checked after the previous kills. */
  const known = new Map<string, State>();
  let worstOpenMs = 0;
  let writes = 0;
  for (let run = 0; run < KILLS; run++) {
    const out = await killedAfter(dir, run, 5 + Math.floor(Math.random() * 120));
    const { acked, inFlight } = replay(out);
    writes += acked.size;

    const started = performance.now();
    const db = createEmbeddedDb({ dir, warn: () => undefined });
    worstOpenMs = Math.max(worstOpenMs, performance.now() - started);
    const stored = new Map<string, State>();
    for (const doc of await db.collection('docs').find({}).toArray())
      stored.set(String(doc._id), doc.v as number);
    await db.close();

    const onDisk = (id: string): State => stored.get(id) ?? 'gone';
    for (const [id, state] of known) expect(onDisk(id), `${id}, checked before run ${run}`).toEqual(state);
    for (const [id, state] of acked) {
      const pending = inFlight.get(id);
      if (pending === undefined) expect(onDisk(id), `${id}, acknowledged`).toEqual(state);
    }
    for (const [id, pending] of inFlight) {
      const before = acked.get(id) ?? 'gone';
      expect([before, pending.state], `${id}, in flight`).toContainEqual(onDisk(id));
      // A group delete is one operation: all of its documents gone, or none.
      const gone = pending.with.map((each) => onDisk(each) === 'gone');
      expect(new Set(gone).size, `group ${pending.with.join(',')}`).toBe(1);
    }
    const made = new Set([...known.keys(), ...acked.keys(), ...inFlight.keys()]);
    for (const id of stored.keys()) expect(made.has(id), `${id} was never written`).toBe(true);
    for (const id of made) known.set(id, onDisk(id));
  }
  console.log(
    `crash test: ${KILLS} SIGKILLs, ${writes} acknowledged writes checked, worst open ${worstOpenMs.toFixed(1)} ms`,
  );
});
