/**
 * `readDocuments()` pages without mingo's cursor when there is neither sort nor projection:
 * the same documents, in the same order, as the cursor gave, and still fresh copies.
 */
import { find as mingoFind } from 'mingo';
import { describe, expect, it } from 'vitest';
import { readDocuments } from '../../src/storage/embedded/read-documents';
import type { Document } from '../../src/storage/types';

const DOCS: Document[] = Array.from({ length: 7 }, (_, i) => ({ _id: `d${i}`, n: i % 3, nested: { i } }));

/** What the cursor answered for the same options (the previous implementation). */
function throughCursor(skip: number, limit: number, projection: Document | undefined): Document[] {
  const cursor = mingoFind(DOCS, {}, projection ?? {}, { scriptEnabled: false });
  if (skip > 0) cursor.skip(skip);
  if (limit !== 0) cursor.limit(Math.abs(limit));
  return cursor.all();
}

describe('readDocuments without sort or projection', () => {
  const skips = [0, 1, 3, 6, 7, 20];
  const limits = [0, 1, 2, 5, 10, -2];
  const cases = skips.flatMap((skip) =>
    limits.flatMap((limit) => [undefined, {}].map((projection) => ({ skip, limit, projection }))),
  );

  it.each(cases)('skip $skip, limit $limit, projection $projection', ({ skip, limit, projection }) => {
    const page = readDocuments(DOCS, undefined, { skip, limit, projection });
    expect(page).toEqual(throughCursor(skip, limit, projection));
  });

  it('returns copies the caller cannot use to reach the stored documents', () => {
    const [first] = readDocuments(DOCS, undefined, { limit: 1 });
    expect(first).toEqual(DOCS[0]);
    expect(first).not.toBe(DOCS[0]);
    expect(first?.nested).not.toBe(DOCS[0]?.nested);
  });

  it.each([
    ['a negative skip', { skip: -1 }],
    ['a fractional limit', { limit: 1.5 }],
  ])('still rejects %s', (_title, options) => {
    expect(() => readDocuments(DOCS, undefined, options)).toThrow(/must be/);
  });
});
