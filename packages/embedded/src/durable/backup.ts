/**
 * A consistent copy of a data directory, also while another process has it open and writes
 * (the lock is not taken). The snapshot is read (one version of it: a compaction replaces it by
 * a rename), then the journals it needs in generation order; the newest is cut after its last
 * whole record (a write under way is not acknowledged yet). If the snapshot or the set of
 * journals changed meanwhile (a compaction), the copy starts again. Older journals are final:
 * nothing is written to a journal once its successor exists.
 */
import { mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { journalName, journalsOf, SNAPSHOT } from './data-directory';
import { DIRECTORY_MODE } from './data-home';
import { syncDirectory } from './journal';
import { decodeRecords, scanRecords } from './records';
import { writeNewFile } from './recovery';

/** Copies started again before giving up on a directory that keeps compacting. */
const MAX_ATTEMPTS = 20;

/** What {@link backupDataDirectory} copied. */
export interface DataDirectoryBackup {
  /** Each file written in the copy, with its size in bytes. */
  files: Array<{ name: string; bytes: number }>;
  /** How many times the copy started (more than 1 when a compaction ran meanwhile). */
  attempts: number;
  /** Bytes of a write under way that the newest journal's copy left out. */
  leftOut: number;
}

/** What names the state of a directory: its snapshot's identity and its journals. */
function stateOf(dir: string): string {
  let snapshot = 'none';
  try {
    const stat = statSync(join(dir, SNAPSHOT));
    snapshot = `${stat.ino}:${stat.size}:${stat.mtimeMs}`;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  return `${snapshot}|${journalsOf(dir).join(',')}`;
}

function readIfThere(path: string): Buffer | undefined {
  try {
    return readFileSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

type Copy = { files: Array<{ name: string; bytes: Buffer }>; leftOut: number };

/** One attempt: the files of a consistent copy, or undefined if the directory changed meanwhile. */
function read(dir: string): Copy | undefined {
  const before = stateOf(dir);
  const files: Copy['files'] = [];
  let generation = 0;
  const snapshot = readIfThere(join(dir, SNAPSHOT));
  if (snapshot) {
    const { records, damage } = decodeRecords(snapshot);
    const header = records[0]?.[0];
    if (damage || !Number.isInteger(header?.generation)) {
      throw new Error(`${join(dir, SNAPSHOT)} is damaged: the directory cannot be copied whole`);
    }
    generation = header?.generation as number;
    files.push({ name: SNAPSHOT, bytes: snapshot });
  }
  const journals = journalsOf(dir).filter((each) => each >= generation);
  let leftOut = 0;
  for (const [i, each] of journals.entries()) {
    const name = journalName(each);
    const bytes = readIfThere(join(dir, name));
    if (!bytes) return undefined;
    if (i < journals.length - 1) {
      files.push({ name, bytes });
      continue;
    }
    const scan = scanRecords(bytes);
    if (scan.afterDamage > 0) {
      throw new Error(
        `${join(dir, name)} is damaged with intact records after it: run "store repair" on it first`,
      );
    }
    const end = scan.damage[0]?.offset ?? bytes.length;
    leftOut = bytes.length - end;
    files.push({ name, bytes: bytes.subarray(0, end) });
  }
  return stateOf(dir) === before ? { files, leftOut } : undefined;
}

/** Creates `dest` (owner-only) or takes it if it is an empty directory. */
function destination(dest: string): void {
  const first = mkdirSync(dest, { recursive: true, mode: DIRECTORY_MODE });
  if (first === undefined && readdirSync(dest).length > 0) {
    throw new Error(`${dest} is not empty: a backup goes to a new or empty directory`);
  }
  if (first === undefined && (statSync(dest).mode & 0o077) !== 0) {
    throw new Error(`${dest} can be reached by other users: a backup goes to a directory of mode 0700`);
  }
}

/**
 * Copies the data directory `dir` to `dest` (created 0700, files 0600, all synced), consistent
 * even while another process writes `dir`. Open the copy with `createEmbeddedDb({ dir: dest })`.
 */
export function backupDataDirectory(dir: string, dest: string): DataDirectoryBackup {
  if (resolve(dir) === resolve(dest)) throw new Error('a backup goes to another directory');
  if (!readdirSync(dir).some((name) => name === SNAPSHOT || /^journal-\d+\.log$/.test(name))) {
    throw new Error(`${dir} holds no data directory (no snapshot.bson, no journal)`);
  }
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    const copy = read(dir);
    if (!copy) continue;
    destination(dest);
    for (const file of copy.files) writeNewFile(join(dest, file.name), [file.bytes]);
    syncDirectory(dest);
    syncDirectory(dirname(resolve(dest)));
    return {
      files: copy.files.map((file) => ({ name: file.name, bytes: file.bytes.length })),
      attempts: attempt,
      leftOut: copy.leftOut,
    };
  }
  throw new Error(`${dir} was compacted during each of ${MAX_ATTEMPTS} attempts to copy it; try again`);
}
