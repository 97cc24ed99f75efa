import { describe, expect, it } from 'vitest';
import { literalKey, MAX_LITERAL_KEYS, ShapeLiterals } from './shape-literals';

type Copy = (source: Record<string, unknown>) => Record<string, unknown>;

/** Copies of objects of one shape, each member read from `source`. */
const copies = () =>
  new ShapeLiterals<Copy>(['source'], (keys) => {
    const fields = keys.map((key) => `${JSON.stringify(key)}: source[${JSON.stringify(key)}]`);
    return `return { ${fields.join(', ')} };`;
  });

describe('ShapeLiterals', () => {
  it('compiles one function per shape, kept for the next object of the shape', () => {
    const shapes = copies();
    const make = shapes.of(['a', 'b']);
    expect(make?.({ a: 1, b: 2 })).toEqual({ a: 1, b: 2 });
    expect(shapes.of(['a', 'b'])).toBe(make);
    expect(shapes.of(['b', 'a'])).not.toBe(make);
  });

  it('names keys that need escapes as themselves', () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a key that reads as a placeholder is the case.
    const keys = ['a"b', 'c\\d', 'e\u2028f', '', '0', '${x}'];
    const source = Object.fromEntries(keys.map((key, i) => [key, i]));
    expect(copies().of(keys)?.(source)).toEqual(source);
  });

  it.each([
    ['a key named __proto__', ['a', '__proto__']],
    ['a key holding a NUL (shapes are named by keys joined by NULs)', ['a\u0000b']],
    ['more keys than MAX_LITERAL_KEYS', Array.from({ length: MAX_LITERAL_KEYS + 1 }, (_, i) => `k${i}`)],
  ])('compiles nothing for %s', (_, keys) => {
    expect(copies().of(keys)).toBeUndefined();
  });

  it('compiles the first 64 shapes only', () => {
    const shapes = copies();
    for (let i = 0; i < 64; i++) expect(shapes.of([`k${i}`])).toBeTypeOf('function');
    expect(shapes.of(['another'])).toBeUndefined();
    expect(shapes.of(['k0'])).toBeTypeOf('function');
  });
});

describe('literalKey', () => {
  it.each([
    ['a', true],
    ['', true],
    ['__proto__', false],
    ['a\u0000', false],
  ])('%j: %s', (key, expected) => {
    expect(literalKey(key)).toBe(expected);
  });
});
