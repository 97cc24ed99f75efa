/**
 * Indexes of the embedded engine described the way MongoDB's `listIndexes` describes them:
 * `{ v: 2, key, name, ...options }`, a text index keyed `{ _fts: 'text', _ftsx: 1 }` with its
 * fields in `weights`, a 2dsphere index carrying its index version.
 */
import type { IndexDescription, IndexSpec } from '@store/common';
import type { CollationSpec } from './collation';

/** The text options MongoDB records on every text index, with its defaults. */
interface TextOptions {
  weights: Record<string, number>;
  default_language: string;
  language_override: string;
}

/** The resolved options of one recorded index. */
export interface ResolvedIndexOptions {
  unique: boolean;
  sparse: boolean;
  expireAfterSeconds: number | undefined;
  /** Text indexes only. */
  text?: TextOptions;
  /** The index's collation, every field resolved (none: binary, `{ locale: 'simple' }`). */
  collation?: CollationSpec;
}

/** MongoDB's description of the `_id` index every collection has. */
export const ID_INDEX: IndexDescription = { v: 2, key: { _id: 1 }, name: '_id_' };

export const isTextSpec = (spec: IndexSpec): boolean => Object.values(spec).includes('text');

/** The key pattern as MongoDB stores it: the text fields become `_fts` / `_ftsx` where the first stood. */
export function describedKey(spec: IndexSpec): Record<string, unknown> {
  const key: Record<string, unknown> = {};
  for (const [field, kind] of Object.entries(spec)) {
    if (kind !== 'text') key[field] = kind;
    else if (!('_fts' in key)) Object.assign(key, { _fts: 'text', _ftsx: 1 });
  }
  return key;
}

/** The weights of a text index's fields (1 each, sorted by field as MongoDB lists them). */
export function textWeights(spec: IndexSpec): Record<string, number> {
  const fields = Object.entries(spec)
    .filter(([, kind]) => kind === 'text')
    .map(([field]) => field)
    .sort();
  return Object.fromEntries(fields.map((field) => [field, 1]));
}

/** One recorded index as `listIndexes` answers it. */
export function describeIndex(
  name: string,
  spec: IndexSpec,
  options: ResolvedIndexOptions,
): IndexDescription {
  const description: IndexDescription = { v: 2, key: describedKey(spec), name };
  if (options.unique) description.unique = true;
  if (options.sparse) description.sparse = true;
  if (options.expireAfterSeconds !== undefined) description.expireAfterSeconds = options.expireAfterSeconds;
  if (options.text) {
    description.weights = { ...options.text.weights };
    description.default_language = options.text.default_language;
    description.language_override = options.text.language_override;
    description.textIndexVersion = 3;
  }
  if (Object.values(spec).includes('2dsphere')) description['2dsphereIndexVersion'] = 3;
  if (options.collation) description.collation = { ...options.collation };
  return description;
}
