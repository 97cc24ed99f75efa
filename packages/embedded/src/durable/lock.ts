/**
 * One process at a time per data directory, in plain JavaScript. The `LOCK` file names its
 * holder (pid, host, boot, pid namespace, process start time, a random token) and is created
 * whole or not at all: written to a file of its own, then hard-linked to `LOCK` (`link` fails
 * if `LOCK` exists, so of two processes starting together exactly one gets it; where hard links
 * are not supported, an exclusive `wx` create). The holder touches it every
 * {@link LOCK_TIMING} `heartbeatMs` (a timer that keeps no process alive).
 *
 * A lock found in place is stale, and taken over, when:
 * - its holder shares our boot and pid namespace and its pid is ours (a container restarted as
 *   pid 1 after `kill -9`), no longer runs, or now belongs to a process started at another time;
 * - it was taken on this host before the machine restarted (another boot id);
 * - otherwise (another host or container sharing the volume, where a pid says nothing) its
 *   heartbeat stopped: no touch for `staleMs`. A lock touched less long ago is watched until it
 *   is touched again (held: refused) or goes `staleMs` without a touch (taken over).
 * A take-over is race-free: a process first creates `LOCK.takeover-<token of the stale lock>`
 * exclusively, reads `LOCK` again under it and removes it only if it is still the stale one.
 */
import { randomUUID } from 'node:crypto';
import {
  closeSync,
  fsyncSync,
  linkSync,
  openSync,
  readdirSync,
  readFileSync,
  realpathSync,
  statSync,
  unlinkSync,
  utimesSync,
  writeSync,
} from 'node:fs';
import { join } from 'node:path';
import { EmbeddedDataError } from './data-error';
import { type Holder, judge, ourselves, parseHolder, readText } from './lock-holder';

const LOCK_FILE = 'LOCK';
/** Files of the data directory are readable and writable by their owner only. */
export const FILE_MODE = 0o600;

/**
 * How often the holder touches `LOCK`, how long without a touch makes it stale (five missed
 * beats), and how often a process waiting on a lock it cannot judge by pid looks again.
 * Mutable for tests only.
 */
export const LOCK_TIMING = { heartbeatMs: 2_000, staleMs: 10_000, pollMs: 200 };
/** Attempts before giving up on a lock that keeps changing hands. */
const MAX_ROUNDS = 8;

/** Directories this process holds (a second open in the same process is refused too). */
const held = new Set<string>();

function lockedError(dir: string, message: string): EmbeddedDataError {
  return new EmbeddedDataError('locked', dir, message);
}

const sleeper = new Int32Array(new SharedArrayBuffer(4));
const sleep = (ms: number) => Atomics.wait(sleeper, 0, 0, ms);

/** The modification time of `path` in ms, or undefined if it is gone. */
function touchedAt(path: string): number | undefined {
  try {
    return statSync(path).mtimeMs;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * Watches a lock that cannot be judged by its pid: answers `stale` once it went `staleMs`
 * without a touch, `held` when it is touched, `changed` when it was removed or replaced.
 */
function watch(path: string, text: string): 'stale' | 'held' | 'changed' {
  const first = touchedAt(path);
  if (first === undefined) return 'changed';
  for (;;) {
    const left = first + LOCK_TIMING.staleMs - Date.now();
    if (left < 0) return 'stale';
    sleep(Math.min(LOCK_TIMING.pollMs, left + 1));
    const now = touchedAt(path);
    if (now === undefined || readText(path) !== text) return 'changed';
    if (now !== first) return 'held';
  }
}

/** Writes `content` to a new file `path` (never an existing one), synced, owner-only. */
function createFile(path: string, content: string): void {
  const fd = openSync(path, 'wx', FILE_MODE);
  try {
    writeSync(fd, content);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

function unlinkIfThere(path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

/** Creates `path` holding `content` if nothing is there: true when this call created it. */
function createExclusively(path: string, content: string, token: string): boolean {
  const draft = `${path}.${token}.new`;
  createFile(draft, content);
  try {
    linkSync(draft, path);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // ENOENT: the draft was swept as litter while this process stood still; it tries again.
    if (code === 'EEXIST' || code === 'ENOENT') return false;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'ENOSYS' && code !== 'EXDEV') throw error;
  } finally {
    unlinkIfThere(draft);
  }
  // No hard links here: an exclusive create (its content appears a moment later).
  try {
    createFile(path, content);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

/**
 * Removes the lock at `path` if it still holds `text`, under a take-over guard of its own so
 * that two processes taking over the same stale lock never remove each other's new one.
 */
function removeStale(path: string, text: string, me: Holder, depth = 0): void {
  const token = parseHolder(text)?.token ?? `pid-${parseHolder(text)?.pid ?? 'none'}`;
  const guard = `${path}.takeover-${token.slice(0, 36)}`;
  const guardText = JSON.stringify({ ...me, token: randomUUID() });
  if (createExclusively(guard, guardText, me.token)) {
    try {
      if (readText(path) === text) unlinkIfThere(path);
    } finally {
      unlinkIfThere(guard);
    }
    return;
  }
  // Another process is taking it over; if that one died doing so, its guard is stale in turn.
  const other = readText(guard);
  if (other === undefined || depth >= 2) return;
  const verdict = judge(parseHolder(other), me);
  if (verdict.stale === true || (verdict.stale === 'unknown' && watch(guard, other) === 'stale')) {
    removeStale(guard, other, me, depth + 1);
  } else {
    sleep(LOCK_TIMING.pollMs);
  }
}

/**
 * Takes the lock of `dir` (which must exist), taking over a stale one, keeps it touched and
 * answers its release. `lost` is called (once) if the lock is found removed or taken by another
 * process.
 */
export function lockDirectory(dir: string, lost: (message: string) => void = () => undefined): () => void {
  const key = realpathSync(dir);
  if (held.has(key)) {
    throw lockedError(
      dir,
      `the data directory ${dir} is in use by this process (pid ${process.pid}); close the other database first`,
    );
  }
  const path = join(dir, LOCK_FILE);
  const me = ourselves();
  const text = JSON.stringify(me);
  for (let round = 0; round < MAX_ROUNDS; round++) {
    if (createExclusively(path, text, me.token)) {
      held.add(key);
      sweep(dir);
      return heartbeat(dir, key, path, text, lost);
    }
    const found = readText(path);
    if (found === undefined) continue; // removed meanwhile: try again
    const holder = parseHolder(found);
    let verdict = judge(holder, me);
    if (verdict.stale === 'unknown') {
      const seen = watch(path, found);
      if (seen === 'changed') continue;
      verdict =
        seen === 'stale' ? { stale: true, why: 'its heartbeat stopped' } : { stale: false, who: verdict.who };
    }
    if (verdict.stale === false) {
      throw lockedError(
        dir,
        `the data directory ${dir} is in use by ${verdict.who}; stop it first, or use another directory`,
      );
    }
    removeStale(path, found, me);
  }
  throw lockedError(
    dir,
    `the data directory ${dir} changed hands ${MAX_ROUNDS} times while this process tried to lock it; try again`,
  );
}

/** Removes the drafts and take-over guards that processes killed while locking left behind. */
function sweep(dir: string): void {
  for (const name of readdirSync(dir)) {
    if (!/^LOCK\.(.+\.new|takeover-.+)$/.test(name)) continue;
    try {
      const path = join(dir, name);
      if (Date.now() - statSync(path).mtimeMs > LOCK_TIMING.staleMs) unlinkIfThere(path);
    } catch {
      // Gone already, or left for the next open.
    }
  }
}

function heartbeat(
  dir: string,
  key: string,
  path: string,
  text: string,
  lost: (message: string) => void,
): () => void {
  let released = false;
  const stop = () => {
    released = true;
    clearInterval(timer);
    held.delete(key);
  };
  const timer = setInterval(() => {
    let found: string | undefined;
    try {
      found = readFileSync(path, 'utf8').trim();
      if (found === text) {
        const now = new Date();
        utimesSync(path, now, now);
        return;
      }
    } catch (error) {
      // No descriptor or no space left for a moment: tried again at the next beat.
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || found === text) return;
    }
    stop();
    lost(
      `the lock of the data directory ${dir} was removed or taken by another process: ` +
        'this database stopped writing, so that two processes never write one directory',
    );
  }, LOCK_TIMING.heartbeatMs);
  timer.unref();
  return () => {
    if (released) return;
    stop();
    try {
      if (readText(path) === text) unlinkIfThere(path);
    } catch {
      // Left in place: the next open finds it stale (its pid is gone, or it is ours).
    }
  };
}
