import { describe, expect, it } from 'vitest';
import { setOwn } from './own-property';

describe('setOwn', () => {
  it('makes __proto__ an own, enumerable field and leaves the prototype alone', () => {
    const target: Record<string, unknown> = {};
    setOwn(target, '__proto__', { polluted: true });
    expect(Object.getPrototypeOf(target)).toBe(Object.prototype);
    expect(Object.keys(target)).toEqual(['__proto__']);
    expect(JSON.stringify(target)).toBe('{"__proto__":{"polluted":true}}');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('assigns any other key', () => {
    const target: Record<string, unknown> = { a: 1 };
    setOwn(target, 'a', 2);
    setOwn(target, 'b', 3);
    expect(target).toEqual({ a: 2, b: 3 });
  });
});
