import { describe, expect, it } from 'vitest';
import { isUnder } from './answer-plugin';

/** The definition: both sides' slashes trimmed, then the prefix whole or followed by a slash. */
function underByDefinition(path: string, prefix: string): boolean {
  const bare = prefix.replace(/^\/+|\/+$/g, '');
  const rest = path.replace(/^\/+/, '');
  return rest === bare || rest.startsWith(`${bare}/`);
}

/** Every join by `/` of up to three of these parts: slashes anywhere, prefixes of prefixes. */
const PARTS = ['', 'auth', 'au', 'authx', '/', '//'];
const SLASHED = [
  ...new Set(
    [[], ...PARTS.map((a) => [a]), ...PARTS.flatMap((a) => PARTS.map((b) => [a, b]))]
      .flatMap((parts) => [parts, ...PARTS.map((c) => [...parts, c])])
      .map((parts) => parts.join('/')),
  ),
];

describe('a plugin route prefix', () => {
  it.each([
    ['/auth', '/auth', true],
    ['/auth/magic-code', '/auth', true],
    ['auth/x', '/auth/', true],
    ['//auth/x', 'auth', true],
    ['/authx', '/auth', false],
    ['/', '/auth', false],
  ])('%s under %s: %s', (path, prefix, expected) => {
    expect(isUnder(path, prefix)).toBe(expected);
  });

  it('holds a path exactly when the definition does (any slashes, any prefix)', () => {
    const differing = SLASHED.flatMap((path) =>
      SLASHED.filter((prefix) => isUnder(path, prefix) !== underByDefinition(path, prefix)).map((prefix) => [
        path,
        prefix,
      ]),
    );
    expect(SLASHED.length).toBeGreaterThan(150);
    expect(differing).toEqual([]);
  });
});
