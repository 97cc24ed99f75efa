/** Every fidelity case, by group: the MongoDB manual's documented answers (see case-types.ts). */
import type { FidelityCase } from './case-types';
import { QUERY_CASES } from './cases/query';
import { SORT_PROJECTION_CASES } from './cases/sort-projection';
import { TEXT_GEO_CASES } from './cases/text-geo';
import { UPDATE_CASES } from './cases/update';

export const FIDELITY_CASES: Readonly<Record<string, readonly FidelityCase[]>> = {
  ...QUERY_CASES,
  ...SORT_PROJECTION_CASES,
  ...UPDATE_CASES,
  ...TEXT_GEO_CASES,
};
