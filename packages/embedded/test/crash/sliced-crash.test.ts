/**
 * A multi-document write runs in slices and journals each slice as it goes: killed (SIGKILL)
 * part-way through an updateMany over thousands of documents, the directory opens with every
 * document whole (both fields an update changes, changed together), each seeded document
 * updated by every acknowledged round and at most the one in flight, and every acknowledged
 * insert made between the slices there.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createEmbeddedDb } from '@store/embedded';
import { expect, it } from 'vitest';
import { killedWriter } from './kill-writer';

const KILLS = 4;
const SEEDED = 10_000;
const writer = fileURLToPath(new URL('./sliced-writer.mjs', import.meta.url));

/** Starts the writer on `dir` and kills it with SIGKILL `ms` after its seed is on disk. */
async function killedAfter(dir: string, ms: number): Promise<string> {
  return killedWriter(writer, [dir, String(SEEDED)], 'ready\n', ms);
}

it(`keeps each document whole through ${KILLS} SIGKILLs in the middle of sliced updateManys`, {
  timeout: 60_000,
}, async () => {
  let cutShort = 0;
  for (let run = 0; run < KILLS; run++) {
    const dir = mkdtempSync(join(tmpdir(), 'store-sliced-crash-'));
    const out = await killedAfter(dir, 60 + Math.floor(Math.random() * 400));
    const lines = out.split('\n');
    const rounds = (kind: string) =>
      Math.max(
        0,
        ...lines
          .filter((line) => line.startsWith(`${kind} round `))
          .map((line) => Number(line.split(' ')[2])),
      );
    const [acked, tried] = [rounds('ack'), rounds('try')];
    const inserted = lines.filter((line) => /^ack i\d+$/.test(line)).map((line) => line.slice(4));

    const db = createEmbeddedDb({ dir, warn: () => undefined });
    const stored = await db.collection('docs').find({}).toArray();
    await db.close();

    const seeded = stored.filter((doc) => String(doc._id).startsWith('s'));
    expect(seeded).toHaveLength(SEEDED);
    for (const doc of seeded) {
      expect(doc.w, `${doc._id}: both fields of one update, or neither`).toBe(doc.v);
      expect(
        [acked, tried],
        `${doc._id}: every acknowledged round, at most the one in flight`,
      ).toContainEqual(doc.v);
    }
    if (new Set(seeded.map((doc) => doc.v)).size > 1) cutShort += 1;
    const ids = new Set(stored.map((doc) => String(doc._id)));
    for (const id of inserted) expect(ids.has(id), `${id}, acknowledged`).toBe(true);
    for (const id of ids) expect(/^(s|i)\d+$/.test(id), `${id} was never written`).toBe(true);
  }
  console.log(`sliced crash test: ${KILLS} SIGKILLs, ${cutShort} of them in the middle of an updateMany`);
});
