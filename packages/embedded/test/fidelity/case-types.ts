/**
 * The shape of one fidelity case: documents, one operation, and the answer the MongoDB manual
 * documents for it. `embedded` is set only where the embedded engine knowingly answers otherwise
 * (see docs/embedded-engine.md): such a case runs as `embedded differs: <name>`, pinning today's
 * embedded answer, and still expects the manual's answer from a real MongoDB.
 */
import type { Document, IndexOptions, IndexSpec } from '@store/common';

/** A `find` (answer: the `_id`s in order, or the documents when projected), a count, or a write. */
export type FidelityOperation =
  | {
      find: Document;
      sort?: Record<string, 1 | -1>;
      projection?: Document;
      skip?: number;
      limit?: number;
    }
  | { count: Document }
  /** An update of the first match (or `many`); the answer is every document after it, by `_id`. */
  | { update: Document; filter: Document; upsert?: boolean; many?: boolean };

export interface FidelityCase {
  name: string;
  docs: readonly Document[];
  indexes?: ReadonlyArray<readonly [IndexSpec, IndexOptions?]>;
  op: FidelityOperation;
  /** The manual's answer; `{ error: <code> }` when MongoDB refuses the operation. */
  expected: unknown;
  /** Today's embedded answer, when it differs from the manual's. */
  embedded?: unknown;
}

/** Cases sharing one set of documents, written as `[name, operation, expected, embedded?]`. */
export function withDocs(
  docs: readonly Document[],
  rows: ReadonlyArray<readonly [string, FidelityOperation, unknown, unknown?]>,
  indexes?: FidelityCase['indexes'],
): FidelityCase[] {
  return rows.map(([name, op, expected, embedded]) => ({
    name,
    docs,
    op,
    expected,
    ...(indexes ? { indexes } : {}),
    ...(embedded === undefined ? {} : { embedded }),
  }));
}

/** A `find` of `filter` (answer: `_id`s; by `_id` when no sort is given). */
export const find = (
  filter: Document,
  options: Omit<Extract<FidelityOperation, { find: Document }>, 'find'> = {},
) => ({ find: filter, ...options }) as const;

/** An update of the document `filter` matches. */
export const update = (
  filter: Document,
  change: Document,
  options: { upsert?: boolean; many?: boolean } = {},
) => ({ update: change, filter, ...options }) as const;
