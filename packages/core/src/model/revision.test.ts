import { describe, expect, it } from 'vitest';
import { newRevision, REVISION_FIELD, revisionOf, sameRevision, UNREVISED } from './revision';

describe('newRevision', () => {
  it('makes 16 base64url characters (12 random bytes), never the same twice', () => {
    // Past the pool's 256 tokens several times, so a refill is crossed too.
    const tokens = Array.from({ length: 2_000 }, () => newRevision());
    for (const token of tokens) expect(token).toMatch(/^[\w-]{16}$/);
    expect(new Set(tokens).size).toBe(tokens.length);
  });

  it('counts nothing: successive tokens share no prefix, so none tells how many writes came between', () => {
    const tokens = Array.from({ length: 300 }, () => newRevision());
    const shared = (a: string, b: string) => {
      let length = 0;
      while (length < a.length && a[length] === b[length]) length++;
      return length;
    };
    // Random tokens: 6 equal leading characters are a 1 in 68 billion chance per pair (a counter after a fixed prefix shares many).
    const long = tokens.slice(1).filter((token, i) => shared(token, tokens[i] as string) >= 6);
    expect(long).toEqual([]);
    const first = new Set(tokens.map((token) => token[0]));
    expect(first.size).toBeGreaterThan(30);
  });
});

describe('sameRevision', () => {
  it('names the stored token, or its absence for a document stored without one', () => {
    const token = newRevision();
    expect(sameRevision({ _id: 1, [REVISION_FIELD]: token, text: 'a' })).toEqual({
      _id: 1,
      [REVISION_FIELD]: token,
    });
    expect(sameRevision({ _id: 1, text: 'a' })).toEqual({ _id: 1, [REVISION_FIELD]: null });
    expect(revisionOf({ _id: 1 })).toBe(UNREVISED);
  });
});
