/** What a data directory holds, for the reports of `store repair` and `store backup`. */
import type { EmbeddedDb } from '@store/embedded';

/** `3 documents in 2 collections (posts 2, users 1)`. */
export async function summary(db: EmbeddedDb): Promise<string> {
  const names = (await db.listCollections().toArray()).map((each) => each.name);
  const counts = await Promise.all(
    names.map(async (name) => [name, await db.collection(name).countDocuments({})] as const),
  );
  const total = counts.reduce((sum, [, count]) => sum + count, 0);
  const each = counts.map(([name, count]) => `${name} ${count}`).join(', ');
  return `${total} document${total === 1 ? '' : 's'} in ${names.length} collection${names.length === 1 ? '' : 's'}${each ? ` (${each})` : ''}`;
}
