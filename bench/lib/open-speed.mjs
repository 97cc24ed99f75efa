// Opening a data directory against `JSON.parse` of the same documents: a directory of N
// documents (the bench's usual small ones, written by the engine and closed cleanly, so it
// holds a snapshot) opened with `createEmbeddedDb({ dir })`, and the same documents as one
// JSON file read and parsed, in the same process, alternating. Both include reading the file.
// Wall time and CPU time (process.cpuUsage, steadier on a shared machine) of each.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEmbeddedDb } from '@store/embedded';
import { items } from './data.mjs';

/** Opening N documents takes at most this many times `JSON.parse` of them. */
const OPEN_TARGET = 2;
/** Documents per insertMany while the directory is filled. */
const FILL_BATCH = 10_000;

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const cpuMs = (since) => {
  const { user, system } = process.cpuUsage(since);
  return (user + system) / 1000;
};

/** Wall and CPU milliseconds of `run`. */
function timed(run) {
  globalThis.gc?.();
  const cpu = process.cpuUsage();
  const started = performance.now();
  const result = run();
  return { ms: performance.now() - started, cpuMs: cpuMs(cpu), result };
}

/**
 * A data directory holding `docs` in collection `items`, closed (a snapshot and an empty
 * journal). No compaction runs while it fills: `close()` writes the one snapshot.
 */
async function filledDirectory(docs) {
  const dir = mkdtempSync(join(tmpdir(), 'bench-open-'));
  const db = createEmbeddedDb({ dir, warn: () => undefined, compactAfterBytes: Number.MAX_SAFE_INTEGER });
  const collection = db.collection('items');
  for (let from = 0; from < docs.length; from += FILL_BATCH) {
    await collection.insertMany(docs.slice(from, from + FILL_BATCH));
  }
  await db.close();
  return dir;
}

/**
 * Medians over `rounds` of opening a directory of `documents` items and of `JSON.parse` of
 * the same items as one file: `{ documents, openMs, parseMs, openCpuMs, parseCpuMs, ratio,
 * cpuRatio }`.
 */
export async function openSpeed(documents, rounds) {
  const docs = items(documents);
  const dir = await filledDirectory(docs);
  const fileDir = mkdtempSync(join(tmpdir(), 'bench-open-file-'));
  const file = join(fileDir, 'db.json');
  writeFileSync(file, JSON.stringify({ items: docs }));
  docs.length = 0;
  const opens = [];
  const parses = [];
  try {
    for (let round = 0; round < rounds; round++) {
      const opened = timed(() => createEmbeddedDb({ dir, warn: () => undefined }));
      opens.push(opened);
      const count = await opened.result.collection('items').countDocuments({});
      if (count !== documents) throw new Error(`opened ${count} documents of ${documents}`);
      await opened.result.close();
      opened.result = undefined;
      parses.push(timed(() => JSON.parse(readFileSync(file, 'utf8'))));
      parses.at(-1).result = undefined;
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
    rmSync(fileDir, { recursive: true, force: true });
  }
  const openMs = median(opens.map(({ ms }) => ms));
  const parseMs = median(parses.map(({ ms }) => ms));
  const openCpuMs = median(opens.map(({ cpuMs }) => cpuMs));
  const parseCpuMs = median(parses.map(({ cpuMs }) => cpuMs));
  return {
    documents,
    openMs,
    parseMs,
    openCpuMs,
    parseCpuMs,
    ratio: openMs / parseMs,
    cpuRatio: openCpuMs / parseCpuMs,
  };
}

/** One line per measure of `openSpeed`. */
export function openSpeedLine({ documents, openMs, parseMs, openCpuMs, parseCpuMs, ratio, cpuRatio }) {
  const met = Math.max(ratio, cpuRatio) <= OPEN_TARGET ? 'met' : 'missed';
  return (
    `open a data directory of ${documents.toLocaleString('en')} documents: ${openMs.toFixed(0)} ms ` +
    `(${openCpuMs.toFixed(0)} ms CPU); JSON.parse of the same as one file ${parseMs.toFixed(0)} ms ` +
    `(${parseCpuMs.toFixed(0)} ms CPU): ${ratio.toFixed(2)}x wall, ${cpuRatio.toFixed(2)}x CPU; ` +
    `target <= ${OPEN_TARGET}x: ${met}`
  );
}
