import { describe, expect, it } from 'vitest';
import { compileQuery } from './compile-query';
import { isQueryError } from './query-error';
import { QUERY_SYNTAX } from './syntax';

/** The error code `compileQuery(query)` throws, or `undefined` when it compiles. */
function codeOf(query: string): string | undefined {
  try {
    compileQuery(query);
    return undefined;
  } catch (error) {
    if (isQueryError(error)) return error.code;
    throw error;
  }
}

/** A value each word takes (`1` for the others). */
const VALUES: Readonly<Record<string, string>> = {
  exists: 'true',
  size: '1',
  id: '0123456789abcdef01234567',
};

describe('QUERY_SYNTAX', () => {
  it('names every operator the compiler takes, and the compiler refuses one it does not name', () => {
    for (const op of QUERY_SYNTAX.operators) {
      expect([op, codeOf(`a:${op}=${VALUES[op] ?? '1'}`)]).toEqual([op, undefined]);
    }
    expect(codeOf('a:like=1')).toBe('invalid_query');
  });

  it('names the coercions, and which operators take one', () => {
    for (const coercion of QUERY_SYNTAX.coercions) {
      expect([coercion, codeOf(`a:${coercion}=${VALUES[coercion] ?? '1'}`)]).toEqual([coercion, undefined]);
    }
    for (const op of QUERY_SYNTAX.coercibleOperators) {
      expect([op, codeOf(`a:${op}:number=1`)]).toEqual([op, undefined]);
    }
    const plain = QUERY_SYNTAX.operators.filter((op) => !QUERY_SYNTAX.coercibleOperators.includes(op));
    expect(plain.length).toBeGreaterThan(0);
    for (const op of plain) expect([op, codeOf(`a:${op}:number=1`)]).toEqual([op, 'invalid_query']);
  });

  it('names every geo form and reserved parameter the compiler takes', () => {
    expect(QUERY_SYNTAX.geoForms).toContain('near');
    expect(codeOf('loc:geo:near=[1,2]')).toBeUndefined();
    expect(codeOf('loc:geo:round=[1,2]')).toBe('invalid_query');
    expect(QUERY_SYNTAX.reserved).toEqual(expect.arrayContaining(['$select', '$sort', '$query', '$search']));
    expect(codeOf('$unknown=1')).toBe('unknown_parameter');
  });

  it('names the $query operators, and cannot be changed', () => {
    expect(QUERY_SYNTAX.rawOperators).toEqual(expect.arrayContaining(['$eq', '$elemMatch', '$nearSphere']));
    expect(QUERY_SYNTAX.rawOperators).not.toContain('$where');
    expect(Object.isFrozen(QUERY_SYNTAX.operators)).toBe(true);
    expect(Object.isFrozen(QUERY_SYNTAX.limits)).toBe(true);
  });
});
