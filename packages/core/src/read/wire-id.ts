/**
 * `wireId: 'id'` in answers: the stored `_id` is shown as `id`, in the documents of an answer and
 * in the documents `$populate` / `$fill` attach to them (at every level). Storage, hooks and
 * `afterRead` see `_id`; this is the last step before the answer is written.
 */
import type { Document } from '@store/common';
import { isPlainObject } from '@store/common';
import type { RequestContext } from '../model/context';
import type { ResolvedStoreOptions } from '../model/options';

/** `doc` with `_id` shown as `id` (first, where `_id` stood); a stored `id` field is not shown. */
function renamed(doc: Document): Document {
  if (!Object.hasOwn(doc, '_id') && !Object.hasOwn(doc, 'id')) return doc;
  const out: Document = {};
  for (const key of Object.keys(doc)) {
    if (key === '_id') out.id = doc._id;
    else if (key !== 'id') out[key] = doc[key];
  }
  return out;
}

/** The relation paths below each first segment: `employees.tasks` gives `employees -> [tasks]`. */
function nextLevels(paths: readonly string[]): Map<string, string[]> {
  const levels = new Map<string, string[]>();
  for (const path of paths) {
    const dot = path.indexOf('.');
    const head = dot < 0 ? path : path.slice(0, dot);
    const below = levels.get(head) ?? [];
    if (dot >= 0) below.push(path.slice(dot + 1));
    levels.set(head, below);
  }
  return levels;
}

/** {@link renamed} for `doc` and for the related documents it carries under `paths`. */
function wireDocument(doc: Document, levels: Map<string, string[]>): Document {
  const out = renamed(doc);
  if (levels.size === 0) return out;
  const copy = out === doc ? { ...doc } : out;
  for (const [field, below] of levels) {
    const value = copy[field];
    const inner = nextLevels(below);
    if (Array.isArray(value)) {
      copy[field] = value.map((item) => (isPlainObject(item) ? wireDocument(item, inner) : item));
    } else if (isPlainObject(value)) {
      copy[field] = wireDocument(value, inner);
    }
  }
  return copy;
}

/**
 * The documents of an answer on the wire: as they are under `wireId: '_id'`; under `'id'`, each
 * with `id` for `_id`, and so the documents the request's `$populate` / `$fill` attached.
 */
export function onTheWire(ctx: RequestContext, documents: Document[]): Document[] {
  if (ctx.options.wireId === '_id') return documents;
  const levels = nextLevels([...ctx.query.populate, ...ctx.query.fill]);
  return documents.map((doc) => wireDocument(doc, levels));
}

/** What names a document whose body is not shown (a `deleted` event, a write whose `afterRead` failed). */
export function wireKey(options: ResolvedStoreOptions, id: unknown): Document {
  return { [options.wireId]: id };
}
