import type { StoreDb } from '@store/common';
import { referenceFields } from '@store/populate';
import { findResource } from '../config/resources';
import type { ResolvedStoreOptions } from '../model/options';

/** One index on a reference field: `{ [field]: 1 }` on `collection`. */
interface ReferenceIndex {
  readonly collection: string;
  readonly field: string;
}

/**
 * The reference fields the declared relations join on: for `resources.<res>.population.<rel>`,
 * `<singular(res)>_id` and `<singular(res)>_ids` on the collection of `<rel>` (what
 * `$populate=<rel>` and `GET /<res>/<id>/<rel>` ask for). `$fill` joins on `_id`, always indexed.
 * Each (collection, field) once, in declaration order.
 */
function referenceIndexes(options: ResolvedStoreOptions): ReferenceIndex[] {
  const out = new Map<string, ReferenceIndex>();
  for (const { resource, relation } of options.relations) {
    const related = findResource(options, relation);
    if (related === undefined) continue;
    const { one, many } = referenceFields(resource, options.populate.singular);
    for (const field of [one, many]) {
      out.set(`${related.collection}\u0000${field}`, { collection: related.collection, field });
    }
  }
  return [...out.values()];
}

/** MongoDB's code for "an index on these keys exists with another name or other options". */
const INDEX_OPTIONS_CONFLICT = 85;

/**
 * Ensures an ascending index on every reference field of a declared relation, with MongoDB's
 * default name (`company_id_1`), so it is idempotent and matches an index made by hand. An
 * index on the same key that already exists under another name or with other options is kept,
 * with a warning, rather than failing start-up.
 */
export async function ensureReferenceIndexes(db: StoreDb, options: ResolvedStoreOptions): Promise<void> {
  // One at a time: concurrent index builds that create one collection implicitly can race.
  for (const { collection, field } of referenceIndexes(options)) {
    try {
      await db.collection(collection).createIndex({ [field]: 1 });
    } catch (error) {
      if ((error as { code?: unknown } | null)?.code !== INDEX_OPTIONS_CONFLICT) throw error;
      options.logger.warn(
        `[@store/core] kept the existing index on ${collection}.${field} (it differs from { ${field}: 1 })`,
      );
    }
  }
}
