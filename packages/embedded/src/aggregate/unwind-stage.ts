/**
 * `$unwind`, and writing a value at a dotted path of a document without changing it in place.
 */

import type { Document } from '@store/common';
import { isPlainObject, setOwn } from '@store/common';
import { EmbeddedDbError } from '../errors';

import type { Run } from './pipeline-run';

/** `doc` with `value` at the dotted `path`, copying the objects on the way (nothing shared is changed). */
export function withPath(doc: Document, path: string, value: unknown): Document {
  const [head = '', ...rest] = path.split('.');
  const out: Document = { ...doc };
  if (head === '__proto__') setOwn(out, head, undefined);
  if (rest.length === 0) {
    if (value === undefined) delete out[head];
    else setOwn(out, head, value);
    return out;
  }
  const inner = isPlainObject(doc[head]) ? (doc[head] as Document) : {};
  setOwn(out, head, withPath(inner, rest.join('.'), value));
  return out;
}

/** The value at a dotted path through sub-documents only (arrays are not walked), as `$unwind` reads it. */
function valueAt(doc: Document, path: string): unknown {
  let value: unknown = doc;
  for (const segment of path.split('.')) {
    if (!isPlainObject(value) || !Object.hasOwn(value, segment)) return undefined;
    value = value[segment];
  }
  return value;
}

/** A `$`-prefixed field path argument, without the `$`. */
function fieldPath(value: unknown, what: string): string {
  if (typeof value !== 'string' || !value.startsWith('$') || value.startsWith('$$') || value.length < 2) {
    throw new EmbeddedDbError('BadValue', `${what} must be a field path starting with '$'`);
  }
  return value.slice(1);
}

/** `$unwind`: one document per array element; a non-array value is one element; null, missing and [] none (unless kept). */
export async function unwindStage(docs: Document[], spec: unknown, run: Run): Promise<Document[]> {
  const options = typeof spec === 'string' ? { path: spec } : spec;
  if (!isPlainObject(options)) throw new EmbeddedDbError('BadValue', '$unwind expects a string or an object');
  const path = fieldPath(options.path, '$unwind path');
  const preserve = options.preserveNullAndEmptyArrays ?? false;
  if (typeof preserve !== 'boolean') {
    throw new EmbeddedDbError('BadValue', 'preserveNullAndEmptyArrays must be a boolean');
  }
  const indexField = options.includeArrayIndex;
  if (
    indexField !== undefined &&
    (typeof indexField !== 'string' || indexField === '' || indexField.startsWith('$'))
  ) {
    throw new EmbeddedDbError('BadValue', 'includeArrayIndex must be a non-empty string not starting with $');
  }
  for (const key of Object.keys(options)) {
    if (!['path', 'preserveNullAndEmptyArrays', 'includeArrayIndex'].includes(key)) {
      throw new EmbeddedDbError('BadValue', `unrecognized option to $unwind stage: ${key}`);
    }
  }
  const indexed = (doc: Document, index: number | null) =>
    indexField === undefined ? doc : withPath(doc, indexField as string, index);
  const out: Document[] = [];
  let at = 0;
  while (at < docs.length) {
    const doc = docs[at++] as Document;
    const value = valueAt(doc, path);
    if (Array.isArray(value) && value.length > 0) {
      value.forEach((element, i) => {
        out.push(indexed(withPath(doc, path, element), i));
      });
    } else if (Array.isArray(value) || value === null || value === undefined) {
      if (preserve) out.push(indexed(Array.isArray(value) ? withPath(doc, path, undefined) : doc, null));
    } else out.push(indexed(doc, null));
    if (run.work.tick() && at < docs.length) await run.work.pause();
  }
  return out;
}
