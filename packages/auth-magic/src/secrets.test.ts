import { describe, expect, it } from 'vitest';
import { generateCode, generateToken, hashSecret, TOKEN_PATTERN } from './secrets';

describe('generateToken', () => {
  it('gives 256 bits as 43 base64url characters, different every time', () => {
    const tokens = new Set(Array.from({ length: 200 }, generateToken));
    expect(tokens.size).toBe(200);
    for (const token of tokens) {
      expect(token).toMatch(TOKEN_PATTERN);
      expect(Buffer.from(token, 'base64url')).toHaveLength(32);
    }
  });
});

describe('generateCode', () => {
  it.each([4, 6, 12])('gives exactly %i digits', (length) => {
    for (let i = 0; i < 50; i += 1) expect(generateCode(length)).toMatch(new RegExp(`^\\d{${length}}$`));
  });

  it('draws every digit about equally often (chi-square far below the p = 1e-6 bound)', () => {
    const counts = new Array<number>(10).fill(0);
    for (let i = 0; i < 10_000; i += 1) {
      for (const digit of generateCode(6)) counts[Number(digit)] = (counts[Number(digit)] ?? 0) + 1;
    }
    const expected = 60_000 / 10;
    const chiSquare = counts.reduce((sum, count) => sum + (count - expected) ** 2 / expected, 0);
    expect(chiSquare).toBeLessThan(44); // 9 degrees of freedom
  });
});

describe('hashSecret', () => {
  it('is a keyed HMAC-SHA256: stable for one key, different for another key or purpose', () => {
    const hash = hashSecret('key-one-0123456789', 'link', 'abc');
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hashSecret('key-one-0123456789', 'link', 'abc')).toBe(hash);
    expect(hashSecret('key-two-0123456789', 'link', 'abc')).not.toBe(hash);
    expect(hashSecret('key-one-0123456789', 'poll', 'abc')).not.toBe(hash);
  });

  it('keeps parts apart: ("a", "bc") and ("ab", "c") differ', () => {
    expect(hashSecret('k', 'code', 'a', 'bc')).not.toBe(hashSecret('k', 'code', 'ab', 'c'));
  });
});
