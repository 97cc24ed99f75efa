/**
 * Crashes at the journal switch: a child process overwrites four documents with records of
 * 1 KiB to 64 KiB, switching to a new journal every few records (its writes cut into 2 KiB
 * calls, so that a record takes a while), and is killed with SIGKILL 0 to 8 ms after one of its
 * first switches, again and again on the same directory. After each kill the directory opens
 * (never "damaged, and a newer journal follows") and each document holds its last acknowledged
 * value or the one in flight.
 */
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createEmbeddedDb } from '@store/embedded';
import { expect, it } from 'vitest';
import { killedWriter } from './kill-writer';

const KILLS = 16;
const writer = fileURLToPath(new URL('./switch-writer.mjs', import.meta.url));

it(`opens with every acknowledged write after ${KILLS} SIGKILLs at journal switches`, {
  timeout: 60_000,
}, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'store-switch-crash-'));
  /** Per document, the values it may hold: its last acknowledged one, and any tried after it. */
  const known = new Map<string, number>();
  let beside = 0;
  let torn = 0;
  let writes = 0;
  for (let run = 1; run <= KILLS; run++) {
    // Killed 0 to 8 ms after its second to sixth switch: inside the records written around it.
    const nth = 2 + Math.floor(Math.random() * 5);
    const out = await killedWriter(writer, [dir, String(run)], `switch ${nth} `, Math.random() * 8);
    const acked = new Map<string, number>();
    const tried = new Map<string, number>();
    for (const line of out.split('\n')) {
      const [kind, id, raw] = line.split(' ');
      if ((kind !== 'try' && kind !== 'ack') || !id || !raw) continue; // a line cut by the kill
      if (kind === 'try') tried.set(id, Number(raw));
      else {
        acked.set(id, Number(raw));
        writes += 1;
      }
    }
    // Two journals side by side: killed between a switch and the compaction that follows it.
    if (readdirSync(dir).filter((name) => name.startsWith('journal-')).length > 1) beside += 1;

    // A torn record cut back on open: the kill landed inside a record.
    const db = createEmbeddedDb({
      dir,
      warn: (message) => {
        if (/cut short|checksum/.test(message)) torn += 1;
      },
    });
    const stored = new Map(
      (await db.collection('docs').find({}).toArray()).map((doc) => [String(doc._id), doc.v as number]),
    );
    await db.close();
    for (const id of new Set([...known.keys(), ...tried.keys()])) {
      // Absent (undefined) only while no write of it was ever acknowledged.
      const allowed = [acked.get(id) ?? known.get(id)];
      if (tried.has(id)) allowed.push(tried.get(id));
      expect(allowed, `${id} after run ${run}`).toContainEqual(stored.get(id));
      known.set(id, stored.get(id) as number);
    }
  }
  console.log(
    `switch crash test: ${KILLS} SIGKILLs, ${writes} acknowledged writes checked, ${beside} kills with two journals beside each other, ${torn} inside a record`,
  );
});
