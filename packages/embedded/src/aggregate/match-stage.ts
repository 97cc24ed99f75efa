/**
 * `$match`: its filter checked, and a `$match` past the first stage run by the engine's filter
 * compiler over the documents in hand.
 */
import type { Document } from '@store/common';
import { isPlainObject } from '@store/common';
import type { Collation } from '../collation';
import { type CompiledFilter, compileFilter } from '../compile-filter';
import { EmbeddedDbError } from '../errors';
import { CollectionIndexes } from '../indexes';
import { bindFilter } from './let-variables';
import type { Run } from './pipeline-run';

/** The indexes of no collection: what a `$match` over documents of no collection compiles against. */
const NO_INDEXES = new CollectionIndexes();
export const compileLoose = (filter: Document, collation: Collation | undefined): CompiledFilter =>
  compileFilter(filter, NO_INDEXES, undefined, collation);

const NEAR_OPERATORS: ReadonlySet<string> = new Set(['$near', '$nearSphere', '$geoNear']);

/** Whether `filter` uses a near operator anywhere (MongoDB refuses them in `$match`). */
function usesNear(filter: unknown): boolean {
  if (Array.isArray(filter)) return filter.some(usesNear);
  if (!isPlainObject(filter)) return false;
  return Object.entries(filter).some(([key, value]) => NEAR_OPERATORS.has(key) || usesNear(value));
}

const NEAR_REFUSED = '$geoNear, $near, and $nearSphere are not allowed in this context';

export function checkMatch(filter: unknown): Document {
  if (!isPlainObject(filter)) throw new EmbeddedDbError('BadValue', '$match specification must be an object');
  if (usesNear(filter)) throw new EmbeddedDbError('BadValue', NEAR_REFUSED);
  return filter;
}

/** A `$match` past the first stage: the engine's filter over the documents in hand, in slices. */
export async function matchStage(docs: Document[], spec: unknown, run: Run): Promise<Document[]> {
  const filter = bindFilter(checkMatch(spec), run.variables);
  if (Object.hasOwn(filter, '$text')) {
    throw new EmbeddedDbError('BadValue', '$match with $text is only allowed as the first pipeline stage');
  }
  const { source } = run.input;
  const compiled = source ? source.compile(filter, run.collation) : compileLoose(filter, run.collation);
  const kept: Document[] = [];
  let at = 0;
  while (at < docs.length) {
    const doc = docs[at++] as Document;
    if (compiled.test(doc)) kept.push(doc);
    if (run.work.tick() && at < docs.length) await run.work.pause();
  }
  return kept;
}
