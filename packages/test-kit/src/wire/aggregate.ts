/**
 * The aggregation the wire front runs: the pipelines the driver's `countDocuments` sends
 * (`$match` first, then `$skip`, `$limit`, and `$group` on a constant `_id` with `$sum` of a
 * number). Any other stage or shape is refused with a clear error, never answered wrongly.
 */
import type { Document, StoreCollection, TimeLimit } from '@store/common';
import { countOption } from './cursors';
import { CommandError } from './errors';

const UNRECOGNIZED_STAGE = 40324;
const SUPPORTED = 'the wire front runs only $match (first), $skip, $limit and $group counts';

function refuse(what: string): never {
  throw new CommandError(UNRECOGNIZED_STAGE, `${what}: ${SUPPORTED}`);
}

const NEAR_OPERATORS = new Set(['$near', '$nearSphere', '$geoNear']);

/** Whether `filter` uses a near operator anywhere (MongoDB refuses them in `$match`). */
function usesNear(filter: unknown): boolean {
  if (Array.isArray(filter)) return filter.some(usesNear);
  if (typeof filter !== 'object' || filter === null) return false;
  return Object.entries(filter).some(([key, value]) => NEAR_OPERATORS.has(key) || usesNear(value));
}

/** `$group: { _id: <constant>, <name>: { $sum: <number> }, ... }` over `docs`. */
function groupAll(spec: unknown, docs: Document[]): Document[] {
  if (typeof spec !== 'object' || spec === null || !('_id' in spec)) refuse('$group needs an _id');
  const { _id, ...accumulators } = spec as Document;
  if ((typeof _id === 'string' && _id.startsWith('$')) || (typeof _id === 'object' && _id !== null)) {
    refuse('$group on a field or an expression');
  }
  if (docs.length === 0) return [];
  const group: Document = { _id };
  for (const [name, accumulator] of Object.entries(accumulators)) {
    const sum = (accumulator as { $sum?: unknown } | null)?.$sum;
    if (typeof sum !== 'number' || Object.keys(accumulator as Document).length !== 1) {
      refuse(`$group accumulator ${name}`);
    }
    group[name] = sum * docs.length;
  }
  return [group];
}

/** Runs `pipeline` over `collection`, its leading `$match` within `limit`. */
export async function runPipeline(
  collection: StoreCollection,
  pipeline: unknown[],
  limit: TimeLimit = {},
): Promise<Document[]> {
  const [first, ...rest] = pipeline;
  const leading = (first as { $match?: unknown } | undefined)?.$match;
  const filter = typeof leading === 'object' && leading !== null ? (leading as Document) : undefined;
  if (usesNear(filter)) {
    throw new CommandError(2, '$geoNear, $near, and $nearSphere are not allowed in this context');
  }
  let docs = await collection.find(filter ?? {}, limit).toArray();
  for (const stage of filter ? rest : pipeline) {
    const entries = typeof stage === 'object' && stage !== null ? Object.entries(stage) : [];
    const [name, value] = entries[0] ?? ['(not a stage)', undefined];
    if (entries.length !== 1) refuse(`a stage must have exactly one field, not ${entries.length}`);
    if (name === '$skip') docs = docs.slice(countOption(value, '$skip', 0));
    else if (name === '$limit') docs = docs.slice(0, countOption(value, '$limit', 0));
    else if (name === '$group') docs = groupAll(value, docs);
    else if (name === '$match') refuse('$match after the first stage');
    else refuse(`Unrecognized pipeline stage name: '${name}'`);
  }
  return docs;
}
