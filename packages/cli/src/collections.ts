/** `store import` and `store export`, and the seed of `store serve`: whole collections in and out. */
import type { Document } from '@store/common';
import { CliError } from './cli-error';
import type { DataFile } from './data-file';
import { progress } from './progress';
import type { Target } from './target';

/** Names of `file`'s collections that already hold documents in `target`, with their counts. */
export async function occupied(target: Target, file: DataFile): Promise<Array<[string, number]>> {
  const counts = await Promise.all(
    [...file.collections.keys()].map(
      async (name) => [name, await target.db.collection(name).countDocuments({})] as [string, number],
    ),
  );
  return counts.filter(([, count]) => count > 0);
}

/**
 * Inserts every collection of `file` into `target`. Collections that already hold documents
 * are refused unless `replace` (then emptied first). Answers the number of documents per collection.
 */
export async function importCollections(
  target: Target,
  file: DataFile,
  options: { replace: boolean },
): Promise<Array<[string, number]>> {
  const taken = await occupied(target, file);
  if (taken.length > 0 && !options.replace) {
    const list = taken.map(([name, count]) => `${name} (${count})`).join(', ');
    throw new CliError(`already holding documents: ${list}; add --replace to delete them first`);
  }
  const imported: Array<[string, number]> = [];
  for (const [name, docs] of file.collections) {
    const collection = target.db.collection(name);
    if (options.replace) await collection.deleteMany({});
    const bar = progress(name, docs.length);
    for (const [i, doc] of docs.entries()) {
      try {
        await collection.insertOne(doc);
      } catch (error) {
        bar.end();
        const duplicate = (error as { code?: unknown }).code === 11000;
        throw new CliError(
          duplicate
            ? `${name}[${i}]: the _id ${JSON.stringify(doc._id)} is in the file twice; ${i} documents of ${name} were imported`
            : `${name}[${i}]: ${(error as Error).message}`,
        );
      }
      bar.update(i + 1);
    }
    bar.end();
    imported.push([name, docs.length]);
  }
  return imported;
}

/** Every collection of `target` with its documents. */
export async function exportCollections(target: Target): Promise<Map<string, Document[]>> {
  const out = new Map<string, Document[]>();
  for (const name of await target.collectionNames()) {
    out.set(name, await target.db.collection(name).find({}).toArray());
  }
  return out;
}
