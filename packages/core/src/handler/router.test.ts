import { describe, expect, it } from 'vitest';
import { PUBLIC_ACCESS } from '../access/rules';
import type { ResolvedResource } from '../model/resource';
import { matchRoute } from './router';

const notes: ResolvedResource = {
  name: 'notes',
  collection: 'n',
  timestamps: true,
  search: [],
  geo: [],
  indexes: [],
  declared: true,
  access: PUBLIC_ACCESS,
  hidden: [],
  managed: [],
  protected: [],
  softDelete: false,
  collation: undefined,
  hooks: {},
  schema: undefined,
  validate: undefined,
};
const open = {
  resources: new Map([['notes', notes]]),
  restrict: false,
  timestamps: false,
  defaultAccess: PUBLIC_ACCESS,
  internalCollections: new Set(['svc-sessions', 'svc-magic-links']),
};
const restricted = { ...open, restrict: true };

describe('matchRoute', () => {
  it.each([
    ['/posts', { kind: 'collection' }],
    ['/posts/', { kind: 'collection' }],
    ['/posts/42', { kind: 'document', id: '42' }],
    ['/posts/a%2Fb', { kind: 'document', id: 'a/b' }],
    ['/posts/42/comments', { kind: 'children', id: '42' }],
    ['/posts/42/', { kind: 'document', id: '42' }],
    ['posts/42', { kind: 'document', id: '42' }],
    ['/%70osts/4%32', { kind: 'document', id: '42' }],
  ])('matches %s', (path, expected) => {
    expect(matchRoute(path, open)).toMatchObject({ ...expected, resource: { name: 'posts' } });
  });

  it('uses the declared options of a resource', () => {
    expect(matchRoute('/notes/1', open)?.resource).toBe(notes);
  });

  it.each([
    ['the root', '/'],
    ['an empty path', ''],
    ['a path of slashes', '//'],
    ['an invalid resource name', '/-posts'],
    ['a name too long', `/${'a'.repeat(65)}`],
    ['an internal collection', '/svc-sessions'],
    ['an internal collection as children', '/posts/1/svc-magic-links'],
    ['an empty segment', '/posts//1'],
    ['four segments', '/posts/1/comments/2'],
    ['malformed percent-encoding', '/posts/%E0%A4%A'],
  ])('passes on %s', (_, path) => {
    expect(matchRoute(path, open)).toBeUndefined();
  });

  it('passes on undeclared resources under restrict', () => {
    expect(matchRoute('/posts', restricted)).toBeUndefined();
    expect(matchRoute('/notes', restricted)?.resource).toBe(notes);
  });
});
