/**
 * `store repair --data <dir>`: opens a data directory whose journal is damaged with intact
 * records after the damage (which a plain start refuses), sets the damaged bytes aside in a
 * file beside the journal, keeps every intact record, and says what it did.
 */
import { existsSync } from 'node:fs';
import { createEmbeddedDb, EmbeddedDataError, type EmbeddedDb } from '@store/embedded';
import { CliError } from './cli-error';
import { summary } from './data-summary';

/** Repairs `dir`, printing each thing done through `out`; answers the exit code. */
export async function repairDataDirectory(dir: string, out: (line: string) => void): Promise<number> {
  if (!existsSync(dir))
    throw new CliError(`${dir} does not exist: store repair opens an existing data directory`);
  const done: string[] = [];
  let db: EmbeddedDb;
  try {
    db = createEmbeddedDb({ dir, repair: true, warn: (message) => done.push(message) });
  } catch (error) {
    if (error instanceof EmbeddedDataError) throw new CliError(error.message);
    throw error;
  }
  try {
    for (const line of done) out(line.replace(/^\[@store\/embedded\] /, ''));
    const holds = await summary(db);
    out(
      done.length === 0
        ? `${dir} needs no repair: it holds ${holds}`
        : `${dir} opens again: it holds ${holds}`,
    );
    return 0;
  } finally {
    await db.close();
  }
}
