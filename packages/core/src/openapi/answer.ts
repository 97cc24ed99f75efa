import type { StoreRequest, StoreResponse } from '../model/http';
import type { ResolvedStoreOptions } from '../model/options';

/**
 * `GET /openapi.json` and `GET /docs` when `openapi` is on; `null` for every other request.
 */
export function answerApiDescription(
  _request: StoreRequest,
  _options: ResolvedStoreOptions,
): StoreResponse | null {
  return null;
}
