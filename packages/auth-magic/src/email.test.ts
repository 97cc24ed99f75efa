import { describe, expect, it } from 'vitest';
import { normalizeEmail } from './email';

describe('normalizeEmail', () => {
  it.each([
    ['  Ada@Example.COM ', 'ada@example.com'],
    ['first.last+tag@sub.example.org', 'first.last+tag@sub.example.org'],
  ])('normalizes %j to %j', (input, expected) => {
    expect(normalizeEmail(input)).toBe(expected);
  });

  it.each([
    [undefined],
    [42],
    [['a@b.co']],
    [{ $ne: null }],
    [''],
    ['no-at-sign'],
    ['a@localhost'],
    ['a b@example.com'],
    ['a@example.com\r\nBcc: victim@example.com'],
    ['a\0@example.com'],
    ['"quoted"@example.com'],
    [`${'a'.repeat(65)}@example.com`],
    [`a@${'b'.repeat(250)}.com`],
  ])('rejects %j with 400 invalid_email', (input) => {
    expect(() => normalizeEmail(input)).toThrow(
      expect.objectContaining({ status: 400, code: 'invalid_email' }),
    );
  });
});
