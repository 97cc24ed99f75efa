/**
 * The data directory itself: created readable and writable by its owner only (0700, as the
 * files in it are 0600), with its entry in the parent synced so that it survives power loss;
 * an existing one open to other users is reported, since its files hold every document and the
 * store's session and secret hashes.
 */
import { mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { syncDirectory } from './journal';

/** The mode of a data directory the engine creates. */
export const DIRECTORY_MODE = 0o700;

/** Creates `dir` (and missing parents) if needed, durably; warns if others may read it. */
export function makeDataDirectory(dir: string, warn: (message: string) => void): void {
  const first = mkdirSync(dir, { recursive: true, mode: DIRECTORY_MODE });
  if (first === undefined) {
    const mode = statSync(dir).mode & 0o777;
    if ((mode & 0o077) !== 0) {
      warn(
        `[@store/embedded] the data directory ${dir} can be reached by other users (mode ` +
          `${mode.toString(8).padStart(4, '0')}): its files hold every document and the session and ` +
          `secret hashes; run "chmod 700 ${dir}"`,
      );
    }
    return;
  }
  // Every directory created, from the first (whose parent existed) down to `dir`: sync each
  // one's parent, so that its entry is on disk.
  let created = resolve(dir);
  const chain = [created];
  while (created !== first && dirname(created) !== created) {
    created = dirname(created);
    chain.push(created);
  }
  for (const each of chain.reverse()) syncDirectory(dirname(each));
}
