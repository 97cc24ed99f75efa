/**
 * json-server documents (`id`) as the store keeps them (`_id`, first): each a copy, made by one
 * object literal per shape (the same keys in the same order), compiled once. Such a copy is laid
 * out as `JSON.parse` lays out an object, its members inside it: one grown member by member
 * keeps them in a separate array (about 24 bytes more a document) and takes longer to make.
 */
import { type Document, setOwn } from '@store/common';

/** Copies `doc` (of one shape) with `id` renamed `_id`, first. */
type Renamer = (doc: Document) => Document;

/** Shapes compiled at most: documents of more shapes are copied member by member. */
const MAX_COMPILED = 64;
/** Keys a shape may have to be compiled (more are rare: copied member by member). */
const MAX_COMPILED_KEYS = 256;

/** `doc` with `id` renamed `_id`, first, member by member (a member named __proto__ stays a member). */
function renamedMemberByMember(doc: Document): Document {
  const renamed: Document = { _id: doc.id };
  for (const key of Object.keys(doc)) {
    if (key !== 'id') setOwn(renamed, key, doc[key]);
  }
  return renamed;
}

/**
 * The source of a {@link Renamer} for documents whose keys are `keys` (`id` among them): one
 * object literal. Each key is written as a JSON string, which is a JavaScript string literal, so
 * no key can be more than a name; `__proto__` never comes here (a literal would set the prototype).
 */
function renamerSource(keys: readonly string[]): string {
  const fields = keys
    .filter((key) => key !== 'id')
    .map((key) => `${JSON.stringify(key)}: doc[${JSON.stringify(key)}]`);
  return `'use strict'; return { _id: doc.id, ${fields.join(', ')} };`;
}

/** Whether this process compiles code from strings (not under `--disallow-code-generation-from-strings`). */
let compiling = true;

/** Renames the `id` of json-server documents, for one file (see the top of this file). */
export class StoreIds {
  readonly #compiled = new Map<string, Renamer>();
  /** The keys of the last shape met, and its renamer (documents of a file mostly share one). */
  #lastKeys: string[] = [];
  #last: Renamer = renamedMemberByMember;

  /** `doc` as the store keeps it: itself when it has an `_id` or no `id`, else a copy with `id` renamed `_id`, first. */
  of(doc: Document): Document {
    if (doc._id !== undefined || doc.id === undefined) return doc;
    if (!this.#sameShape(doc)) {
      this.#lastKeys = Object.keys(doc);
      this.#last = this.#renamerOf(this.#lastKeys);
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

  #renamerOf(keys: readonly string[]): Renamer {
    // A shape is named by its keys joined by NULs: a key holding one could name another shape.
    if (
      keys.length > MAX_COMPILED_KEYS ||
      !keys.every((key) => key !== '__proto__' && !key.includes('\u0000'))
    ) {
      return renamedMemberByMember;
    }
    const shape = keys.join('\u0000');
    const known = this.#compiled.get(shape);
    if (known || !compiling || this.#compiled.size >= MAX_COMPILED) return known ?? renamedMemberByMember;
    let renamer: Renamer;
    try {
      renamer = new Function('doc', renamerSource(keys)) as Renamer;
    } catch {
      compiling = false; // code generation is disallowed: member by member from now on
      return renamedMemberByMember;
    }
    this.#compiled.set(shape, renamer);
    return renamer;
  }
}
