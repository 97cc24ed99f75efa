import { invalidOption } from '@store/common';
import type { QueryOptions } from './types';

/** {@link QueryOptions} with every default applied and validated. */
export type ResolvedQueryOptions = Required<QueryOptions>;

function positiveInteger(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 1) {
    invalidOption(name, `must be an integer >= 1, got ${String(value)}`);
  }
  return value;
}

const DEFAULTS: ResolvedQueryOptions = { defaultLimit: 10, maxLimit: 1000, wireId: '_id' };

/**
 * Applies the defaults of {@link QueryOptions} (`??`, so an explicit `undefined` keeps the
 * default) and fails fast, naming the option, on a value that is not an integer >= 1 or on
 * `defaultLimit > maxLimit`, and on a `wireId` other than `'_id'` or `'id'`. Passing an already
 * resolved object returns an equal one.
 */
export function resolveQueryOptions(options?: QueryOptions): ResolvedQueryOptions {
  if (options === undefined) return { ...DEFAULTS };
  const defaultLimit = positiveInteger('defaultLimit', options.defaultLimit ?? DEFAULTS.defaultLimit);
  const maxLimit = positiveInteger('maxLimit', options.maxLimit ?? DEFAULTS.maxLimit);
  if (defaultLimit > maxLimit) {
    invalidOption('defaultLimit', `${defaultLimit} exceeds maxLimit (${maxLimit})`);
  }
  const wireId = options.wireId ?? DEFAULTS.wireId;
  if (wireId !== '_id' && wireId !== 'id')
    invalidOption('wireId', `must be "_id" or "id", got ${String(wireId)}`);
  return { defaultLimit, maxLimit, wireId };
}
