/**
 * `store backup --data <dir> <dest>`: a consistent copy of a data directory, also while a
 * `store serve` (or any process) has it open, then opened to prove it whole.
 */
import { existsSync } from 'node:fs';
import { backupDataDirectory, createEmbeddedDb, EmbeddedDataError, type EmbeddedDb } from '@store/embedded';
import { CliError } from './cli-error';
import { summary } from './data-summary';

/** Copies `dir` to `dest` and checks that the copy opens; answers the exit code. */
export async function backupCommand(dir: string, dest: string, out: (line: string) => void): Promise<number> {
  if (!existsSync(dir))
    throw new CliError(`${dir} does not exist: store backup copies an existing data directory`);
  let copy: ReturnType<typeof backupDataDirectory>;
  try {
    copy = backupDataDirectory(dir, dest);
  } catch (error) {
    throw new CliError(`cannot back up ${dir}: ${(error as Error).message}`);
  }
  const warnings: string[] = [];
  let db: EmbeddedDb;
  try {
    db = createEmbeddedDb({ dir: dest, warn: (message) => warnings.push(message) });
  } catch (error) {
    if (error instanceof EmbeddedDataError)
      throw new CliError(`the copy in ${dest} does not open: ${error.message}`);
    throw error;
  }
  try {
    const bytes = copy.files.reduce((sum, file) => sum + file.bytes, 0);
    out(
      `backed up ${dir} to ${dest}: ${copy.files.map((file) => file.name).join(', ')} (${bytes} bytes); ` +
        `the copy opens and holds ${await summary(db)}`,
    );
    if (copy.attempts > 1)
      out(`started again ${copy.attempts - 1} time(s): a compaction ran during the copy`);
    if (copy.leftOut > 0) out(`left out a write under way (${copy.leftOut} bytes, not yet acknowledged)`);
    for (const line of warnings) out(line.replace(/^\[@store\/embedded\] /, ''));
    return 0;
  } finally {
    await db.close();
  }
}
