/**
 * The stage names MongoDB knows and the ones the engine runs, and a pipeline read as its stages
 * (name and argument each).
 */
import type { Document } from '@store/common';
import { isPlainObject } from '@store/common';
import { EmbeddedDbError } from '../errors';

/** Every stage name MongoDB knows: the ones the engine does not run are refused by name (238). */
const KNOWN_STAGES: ReadonlySet<string> = new Set([
  '$addFields',
  '$bucket',
  '$bucketAuto',
  '$changeStream',
  '$changeStreamSplitLargeEvent',
  '$collStats',
  '$count',
  '$currentOp',
  '$densify',
  '$documents',
  '$facet',
  '$fill',
  '$geoNear',
  '$graphLookup',
  '$group',
  '$indexStats',
  '$limit',
  '$listClusterCatalog',
  '$listLocalSessions',
  '$listSampledQueries',
  '$listSearchIndexes',
  '$listSessions',
  '$lookup',
  '$match',
  '$merge',
  '$out',
  '$planCacheStats',
  '$project',
  '$querySettings',
  '$queryStats',
  '$rankFusion',
  '$redact',
  '$replaceRoot',
  '$replaceWith',
  '$sample',
  '$score',
  '$scoreFusion',
  '$search',
  '$searchMeta',
  '$set',
  '$setWindowFields',
  '$shardedDataDistribution',
  '$skip',
  '$sort',
  '$sortByCount',
  '$unionWith',
  '$unset',
  '$unwind',
  '$vectorSearch',
]);

const isStage = (stage: unknown): stage is Document =>
  isPlainObject(stage) && Object.keys(stage).length === 1;

/** The name and argument of each stage; refused (40323) unless each is an object of one field. */
export function stagesOf(pipeline: unknown): Array<[string, unknown]> {
  if (!Array.isArray(pipeline)) throw new EmbeddedDbError('BadValue', 'pipeline must be an array');
  return pipeline.map((stage) => {
    if (!isStage(stage)) {
      throw new EmbeddedDbError(
        'Location40323',
        'A pipeline stage specification object must contain exactly one field.',
      );
    }
    const [name] = Object.keys(stage) as [string];
    return [name, stage[name]];
  });
}

/** Refuses a stage MongoDB does not know (40324), or one the engine does not run (238). */
export function checkStageName(name: string): void {
  if (!KNOWN_STAGES.has(name)) {
    throw new EmbeddedDbError('Location40324', `Unrecognized pipeline stage name: '${name}'`);
  }
}

/** The stages the engine runs. */
export const IMPLEMENTED_STAGES: ReadonlySet<string> = new Set([
  '$match',
  '$project',
  '$addFields',
  '$set',
  '$unset',
  '$replaceRoot',
  '$replaceWith',
  '$unwind',
  '$group',
  '$sortByCount',
  '$sort',
  '$skip',
  '$limit',
  '$count',
  '$facet',
  '$lookup',
  '$documents',
]);
