import { describe, expect, it } from 'vitest';
import { mergePatchUpdate } from './merge-patch';

/** Applies a {@link mergePatchUpdate} the way MongoDB would, for the RFC's examples. */
function apply(stored: Record<string, unknown>, patch: Record<string, unknown>): unknown {
  const { set, unset } = mergePatchUpdate(stored, patch);
  const result = structuredClone(stored);
  const walk = (path: string, leaf: (parent: Record<string, unknown>, key: string) => void) => {
    const parts = path.split('.');
    let node = result as Record<string, unknown>;
    for (const part of parts.slice(0, -1)) node = node[part] as Record<string, unknown>;
    leaf(node, parts.at(-1) as string);
  };
  for (const [path, value] of Object.entries(set)) walk(path, (parent, key) => (parent[key] = value));
  for (const path of unset) walk(path, (parent, key) => delete parent[key]);
  return JSON.parse(JSON.stringify(result));
}

describe('mergePatchUpdate', () => {
  // RFC 7396, appendix A (documents with a top-level object).
  it.each([
    [{ a: 'b' }, { a: 'c' }, { a: 'c' }],
    [{ a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
    [{ a: 'b' }, { a: null }, {}],
    [{ a: 'b', b: 'c' }, { a: null }, { b: 'c' }],
    [{ a: ['b'] }, { a: 'c' }, { a: 'c' }],
    [{ a: 'c' }, { a: ['b'] }, { a: ['b'] }],
    [{ a: { b: 'c' } }, { a: { b: 'd', c: null } }, { a: { b: 'd' } }],
    [{ a: [{ b: 'c' }] }, { a: [1] }, { a: [1] }],
    [{ e: null }, { a: 1 }, { e: null, a: 1 }],
    [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
    [{ a: 1 }, { a: { b: { c: 2, d: null } } }, { a: { b: { c: 2 } } }],
    [{ a: { b: { c: 1, d: 2 } } }, { a: { b: { d: null, e: 3 } } }, { a: { b: { c: 1, e: 3 } } }],
  ])('merges %j with %j into %j', (stored, patch, expected) => {
    expect(apply(stored, patch)).toEqual(expected);
  });

  it('changes neither argument', () => {
    const stored = { a: { b: 1 } };
    const patch = { a: { b: null, c: { d: null } } };
    mergePatchUpdate(stored, patch);
    expect(stored).toEqual({ a: { b: 1 } });
    expect(patch).toEqual({ a: { b: null, c: { d: null } } });
  });
});
