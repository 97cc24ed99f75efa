/**
 * One process at a time per data directory: a `LOCK` file created exclusively (`wx`) holding
 * the owner's pid. A lock whose pid no longer runs (a process killed with SIGKILL) is stale and
 * taken over; a lock held by a live process, or by this process already, refuses at once.
 * (A recycled pid can make a stale lock look held: the message says which pid to check.)
 */
import { closeSync, openSync, readFileSync, realpathSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { EmbeddedDataError } from './data-error';

const LOCK_FILE = 'LOCK';
/** Directories this process holds (a second open in the same process is refused too). */
const held = new Set<string>();

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function lockedError(dir: string, holder: string): EmbeddedDataError {
  return new EmbeddedDataError(
    'locked',
    dir,
    `the data directory ${dir} is in use by ${holder}; stop it first, or use another directory`,
  );
}

/** Takes the lock of `dir` (which must exist) and answers how to release it. */
export function lockDirectory(dir: string): () => void {
  const key = realpathSync(dir);
  if (held.has(key)) throw lockedError(dir, `this process (pid ${process.pid})`);
  const path = join(dir, LOCK_FILE);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx');
      writeSync(fd, `${process.pid}\n`);
      closeSync(fd);
      held.add(key);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        held.delete(key);
        try {
          unlinkSync(path);
        } catch {
          // Already gone: nothing to release.
        }
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const pid = Number.parseInt(readFileSync(path, 'utf8'), 10);
    if (Number.isInteger(pid) && pid > 0 && isRunning(pid)) throw lockedError(dir, `process ${pid}`);
    unlinkSync(path); // stale: its process is gone
  }
  throw lockedError(dir, 'another process that took it at the same moment');
}
