/**
 * json-server documents (`id`) as the store keeps them (`_id`, first): each a copy, made by one
 * object literal per shape compiled once (`ShapeLiterals`), so it is laid out as `JSON.parse`
 * lays out an object: one grown member by member keeps its members in a separate array (about 24
 * bytes more a document) and takes longer to make.
 */
import { type Document, ShapeLiterals, setOwn } from '@store/common';

/** Copies `doc` (of one shape) with `id` renamed `_id`, first. */
type Renamer = (doc: Document) => Document;

/** `doc` with `id` renamed `_id`, first, member by member (a member named __proto__ stays a member). */
function renamedMemberByMember(doc: Document): Document {
  const renamed: Document = { _id: doc.id };
  for (const key of Object.keys(doc)) {
    if (key !== 'id') setOwn(renamed, key, doc[key]);
  }
  return renamed;
}

/** The body of a {@link Renamer} for documents whose keys are `keys` (`id` among them): one object literal. */
function renamerSource(keys: readonly string[]): string {
  const fields = keys
    .filter((key) => key !== 'id')
    .map((key) => `${JSON.stringify(key)}: doc[${JSON.stringify(key)}]`);
  return `return { _id: doc.id, ${fields.join(', ')} };`;
}

/** Renames the `id` of json-server documents, for one file (see the top of this file). */
export class StoreIds {
  readonly #renamers = new ShapeLiterals<Renamer>(['doc'], renamerSource);
  /** The keys of the last shape met, and its renamer (documents of a file mostly share one). */
  #lastKeys: string[] = [];
  #last: Renamer = renamedMemberByMember;

  /** `doc` as the store keeps it: itself when it has an `_id` or no `id`, else a copy with `id` renamed `_id`, first. */
  of(doc: Document): Document {
    if (doc._id !== undefined || doc.id === undefined) return doc;
    if (!this.#sameShape(doc)) {
      this.#lastKeys = Object.keys(doc);
      this.#last = this.#renamers.of(this.#lastKeys) ?? renamedMemberByMember;
    }
    return this.#last(doc);
  }

  /** Whether `doc`'s own keys are the last shape's, in order. */
  #sameShape(doc: Document): boolean {
    const keys = this.#lastKeys;
    let k = 0;
    for (const key in doc) {
      if (key !== keys[k++] || !Object.hasOwn(doc, key)) return false;
    }
    return k === keys.length;
  }
}
