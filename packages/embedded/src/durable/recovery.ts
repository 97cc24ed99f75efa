/**
 * What opening does with a damaged journal. A torn tail (damage with no whole record after it:
 * the write under way when the process died, never acknowledged) is cut off. Damage followed by
 * whole records is refused, unless the open was asked to repair: then the damaged bytes are set
 * aside and every whole record kept. Either way the bytes taken out are first copied beside the
 * journal (`journal-<g>.log.damaged-<time>`, synced, with its directory entry) and only then is
 * the journal changed: a crash in between loses nothing.
 */
import { closeSync, fdatasyncSync, fsyncSync, ftruncateSync, openSync, renameSync, writeSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { EmbeddedDataError } from './data-error';
import { syncDirectory } from './journal';
import { FILE_MODE } from './lock';
import type { RecordScan } from './records';

/** Writes `parts` to a new file at `path` (owner-only) and syncs it. */
export function writeNewFile(path: string, parts: readonly Uint8Array[]): void {
  const fd = openSync(path, 'wx', FILE_MODE);
  try {
    for (const part of parts) {
      let written = 0;
      while (written < part.length) written += writeSync(fd, part, written, part.length - written);
    }
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Copies `parts` to a new file beside `path`, durably (file and directory entry). */
function setAside(path: string, parts: readonly Uint8Array[]): string {
  const kept = `${path}.damaged-${Date.now()}`;
  writeNewFile(kept, parts);
  syncDirectory(dirname(path));
  return kept;
}

const stretches = (scan: RecordScan) =>
  scan.damage
    .map((span) => `${span.reason} at byte ${span.offset} (${span.end - span.offset} bytes)`)
    .join('; ');

/** The refusal of a journal with whole records after damage. */
export function damagedJournal(path: string, scan: RecordScan): EmbeddedDataError {
  const [first] = scan.damage;
  const dir = dirname(path);
  return new EmbeddedDataError(
    'corrupt',
    path,
    `${path} is damaged at byte ${first?.offset} (${first?.reason}) and ${scan.afterDamage} intact ` +
      `record${scan.afterDamage === 1 ? '' : 's'} follow the damage, so this is not a write cut short; ` +
      `nothing was loaded. To open it keeping every intact record (the damaged bytes set aside beside ` +
      `${basename(path)}), run "store repair --data ${dir}" or open it with { dir, repair: true }; ` +
      'or restore the directory from a backup.',
  );
}

/** Cuts the torn tail of the journal at `path` (from `end`); answers the journal's new size. */
export function cutTornTail(
  path: string,
  bytes: Buffer,
  scan: RecordScan,
  warn: (message: string) => void,
): number {
  const end = scan.damage[0]?.offset ?? bytes.length;
  const kept = setAside(path, [bytes.subarray(end)]);
  const fd = openSync(path, 'r+');
  try {
    ftruncateSync(fd, end);
    fdatasyncSync(fd);
  } finally {
    closeSync(fd);
  }
  warn(
    `[@store/embedded] ${path}: ${stretches(scan)}; the last ${bytes.length - end} bytes ` +
      `(a write cut short, never acknowledged) were set aside in ${kept}`,
  );
  return end;
}

/**
 * Rewrites the journal at `path` with its whole records only (through a synced temporary file
 * renamed over it), after setting its damaged stretches aside; answers its new size.
 */
export function repairJournal(
  path: string,
  bytes: Buffer,
  scan: RecordScan,
  warn: (message: string) => void,
): number {
  const kept = setAside(
    path,
    scan.damage.map((span) => bytes.subarray(span.offset, span.end)),
  );
  const parts = scan.kept.map(([start, end]) => bytes.subarray(start, end));
  const tmp = `${path}.repair-${Date.now()}`;
  writeNewFile(tmp, parts);
  renameSync(tmp, path);
  syncDirectory(dirname(path));
  const size = parts.reduce((sum, part) => sum + part.length, 0);
  warn(
    `[@store/embedded] repaired ${path}: ${stretches(scan)}; ${bytes.length - size} damaged bytes set ` +
      `aside in ${kept}; ${scan.count} intact records kept, ${scan.afterDamage} of them after the damage`,
  );
  return size;
}
