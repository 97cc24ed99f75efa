/**
 * The indexes core owns, named `store_` + MongoDB's default name so they
 * are told apart from the application's own: a text index over each resource's `search` fields,
 * a `2dsphere` index on each `geo` field, and an ascending index on each field of `indexes` and
 * on every reference field of a declared relation. Start-up reconciles each with `ensureIndex`: changed ones are replaced,
 * the application's are left alone.
 */
import type { Collation, CollectionIndex } from '@store/common';
import { referenceFields } from '@store/populate';
import { findResource } from '../model/find-resource';
import type { ResolvedStoreOptions } from '../model/options';

/** Name of the text index behind `$search`. */
const SEARCH_INDEX = 'store_search';

/**
 * The field the text index reads a document's language from (`language_override`): one nobody
 * writes, so a stored `language` field is data, never an instruction to the index.
 */
const TEXT_LANGUAGE_FIELD = '_store_text_language';

const owned = (
  collection: string,
  field: string,
  kind: 1 | '2dsphere',
  collation?: Collation,
): CollectionIndex => ({
  collection,
  index: {
    spec: { [field]: kind },
    options: { name: `store_${field}_${kind}`, ...(collation === undefined ? {} : { collation }) },
  },
});

/**
 * The ascending indexes: each field of a resource's `indexes` (with its `collation`, so
 * MongoDB uses them for its lists), and the reference fields the
 * declared relations join on: for `resources.<res>.population.<rel>`, `<singular(res)>_id` and
 * `<singular(res)>_ids` on the collection of `<rel>` (what `$populate=<rel>` and
 * `GET /<res>/<id>/<rel>` ask for), and with a foreign dialect on (the populate option
 * `camelCase`), the json-server spellings `<singular(res)>Id` and `<singular(res)>Ids` they also
 * join on. `$fill` joins on `_id`, always indexed.
 */
function ascendingIndexes(options: ResolvedStoreOptions): CollectionIndex[] {
  const out = new Map<string, CollectionIndex>();
  for (const { collection, indexes, collation } of options.resources.values()) {
    for (const field of indexes) {
      out.set(`${collection}\u0000${field}`, owned(collection, field, 1, collation));
    }
  }
  for (const { resource, relation } of options.relations) {
    const related = findResource(options, relation);
    if (related === undefined) continue;
    const { one, many, camel } = referenceFields(
      resource,
      options.populate.singular,
      options.populate.camelCase,
    );
    const fields = camel === undefined ? [one, many] : [one, many, camel.one, camel.many];
    for (const field of fields) {
      out.set(`${related.collection}\u0000${field}`, owned(related.collection, field, 1));
    }
  }
  return [...out.values()];
}

/** Every index core owns, in declaration order. */
export function storeIndexes(options: ResolvedStoreOptions): CollectionIndex[] {
  const resources = [...options.resources.values()];
  const search = resources
    .filter((resource) => resource.search.length > 0)
    .map(({ collection, search: fields }) => ({
      collection,
      index: {
        spec: Object.fromEntries(fields.map((field) => [field, 'text' as const])),
        options: { name: SEARCH_INDEX, language_override: TEXT_LANGUAGE_FIELD },
      },
    }));
  const geo = resources.flatMap(({ collection, geo: fields }) =>
    fields.map((field) => owned(collection, field, '2dsphere')),
  );
  return [...search, ...geo, ...ascendingIndexes(options)];
}
