/** Files the command writes that hold the data (`store export`): readable by their owner only. */
import { closeSync, fchmodSync, openSync, writeSync } from 'node:fs';

const OWNER_ONLY = 0o600;

/** Writes `text` to `path` (replacing it), mode 0600 whatever the umask or the file's former mode. */
export function writePrivateFile(path: string, text: string): void {
  const fd = openSync(path, 'w', OWNER_ONLY);
  try {
    fchmodSync(fd, OWNER_ONLY); // a file that existed keeps its mode through open
    writeSync(fd, text);
  } finally {
    closeSync(fd);
  }
}
