/**
 * The security sweep's worst regexes (exponential `(a|a)*$`, `(\w|\d)+$`, nested quantifiers;
 * polynomial `.*.*=`, `a*a*b`) over adversarial stored values of 30 and 3,000 characters,
 * through every way a regex enters a filter. With JavaScript's backtracking RegExp one such
 * filter over 28 characters took 13 s; with RE2 each answers at once. No timing assertion:
 * the test asserts the right documents and runs under a timeout far beyond what RE2 needs
 * (on the backtracking engine it ran minutes).
 */

import type { Document } from '@store/common';
import { compileQuery } from '@store/query';
import { describe, expect, it } from 'vitest';
import { createEmbeddedDb } from '../src/index';

interface Case {
  pattern: string;
  /** The stored value that makes a backtracking engine explode, `n` characters long or so. */
  evil: (n: number) => string;
  /** Whether `pattern` matches the evil value. */
  matchesEvil: boolean;
  /** A short value `pattern` matches. */
  benign: string;
}

const CASES: readonly Case[] = [
  { pattern: '(a|a)*$', evil: (n) => `${'a'.repeat(n)}!`, matchesEvil: true, benign: 'b' },
  { pattern: '^(a|a)*$', evil: (n) => `${'a'.repeat(n)}!`, matchesEvil: false, benign: 'aa' },
  { pattern: '(\\w|\\d)+$', evil: (n) => `${'1'.repeat(n)}!`, matchesEvil: false, benign: 'x1' },
  { pattern: '.*.*=', evil: (n) => 'a'.repeat(n), matchesEvil: false, benign: 'a=b' },
  { pattern: 'a*a*b', evil: (n) => 'a'.repeat(n), matchesEvil: false, benign: 'aab' },
];

/** The compiled query strings for `pattern`, each entry path, and whether it selects the matching documents or the others. */
function entryPaths(pattern: string): [string, string, boolean][] {
  const bson = JSON.stringify({ $regularExpression: { pattern, options: '' } });
  const json = JSON.stringify(pattern);
  const query = (raw: string) => `$query=${encodeURIComponent(raw)}`;
  return [
    ['$regex', `$regex=${encodeURIComponent(JSON.stringify(['name', pattern, '']))}`, true],
    ['$query.$regex', query(`{"name":{"$regex":${json}}}`), true],
    ['$query.$not', query(`{"name":{"$not":{"$regex":${json}}}}`), false],
    ['$query.$in', query(`{"name":{"$in":["zzz",${bson}]}}`), true],
    ['$query.$nin', query(`{"name":{"$nin":[${bson}]}}`), false],
    ['$query.$all', query(`{"tags":{"$all":[${bson}]}}`), true],
  ];
}

async function seed(c: Case, n: number) {
  const docs = createEmbeddedDb().collection(`regex${n}`);
  const evil = c.evil(n);
  await docs.insertOne({ _id: 'evil', name: evil, tags: ['!', evil] });
  await docs.insertOne({ _id: 'benign', name: c.benign, tags: [c.benign] });
  const matching = c.matchesEvil ? ['benign', 'evil'] : ['benign'];
  const others = c.matchesEvil ? [] : ['evil'];
  return { docs, matching, others };
}

const sortedIds = (docs: readonly Document[]) => docs.map((doc) => doc._id as string).sort();

describe.each([30, 3000])('adversarial regexes over a %i-character stored value', (n) => {
  describe.each(CASES)('$pattern', (c) => {
    it.each(entryPaths(c.pattern))(
      'answers at once through %s',
      async (_, query, selectsMatching) => {
        const { docs, matching, others } = await seed(c, n);
        const { filter } = compileQuery(query);
        expect(sortedIds(await docs.find(filter).toArray())).toEqual(selectsMatching ? matching : others);
      },
      5000,
    );
  });

  it.each([
    ['$regex string', (p: string) => ({ name: { $regex: p } })],
    ['$regex with $options', (p: string) => ({ name: { $regex: p, $options: 'i' } })],
    ['a RegExp value', (p: string) => ({ name: new RegExp(p) })],
    ['$in', (p: string) => ({ name: { $in: [new RegExp(p), 1, { a: 1 }] } })],
    ['$all', (p: string) => ({ tags: { $all: [new RegExp(p)] } })],
    ['$not', (p: string) => ({ name: { $not: new RegExp(p) } })],
    ['$or', (p: string) => ({ $or: [{ name: new RegExp(p) }, { name: 'zzz' }] })],
  ])(
    'runs nested quantifiers (refused by the compiler) given straight to the engine: %s',
    async (label, filterOf) => {
      const c: Case = {
        pattern: '(a+)+$',
        evil: (k) => `${'a'.repeat(k)}!`,
        matchesEvil: false,
        benign: 'aa',
      };
      const { docs, matching, others } = await seed(c, n);
      const found = sortedIds(await docs.find(filterOf(c.pattern)).toArray());
      expect(found).toEqual(label === '$not' ? others : matching);
    },
    5000,
  );
});

describe('$regexMatch, $regexFind and $regexFindAll in $expr', () => {
  it.each([30, 3000])('run the sweep patterns over %i characters at once', async (n) => {
    const docs = createEmbeddedDb().collection('expr');
    await docs.insertOne({ _id: 'evil', name: `${'a'.repeat(n)}!` });
    await docs.insertOne({ _id: 'benign', name: 'aa' });
    const matching = (regex: string) => ({ $expr: { $regexMatch: { input: '$name', regex } } });
    expect(sortedIds(await docs.find(matching('^(a|a)*$')).toArray())).toEqual(['benign']);
    expect(sortedIds(await docs.find(matching('^(a+)+$')).toArray())).toEqual(['benign']);
    expect(sortedIds(await docs.find(matching('.*.*=')).toArray())).toEqual([]);
  });

  it('find matches as mingo did: index, captures, every match for $regexFindAll', async () => {
    const docs = createEmbeddedDb().collection('expr');
    await docs.insertOne({ _id: 1, s: 'x1-y22-z' });
    const find = (op: string, regex: unknown, options?: string) => ({
      $expr: { $eq: [{ [op]: { input: '$s', regex, ...(options ? { options } : {}) } }, EXPECTED[op]] },
    });
    const EXPECTED: Record<string, unknown> = {
      $regexFind: { match: 'x1', idx: 0, captures: ['x', '1'] },
      $regexFindAll: [
        { match: 'x1', idx: 0, captures: ['x', '1'] },
        { match: 'y22', idx: 3, captures: ['y', '22'] },
        { match: 'z', idx: 7, captures: ['z', null] },
      ],
    };
    expect(await docs.countDocuments(find('$regexFind', '([a-z])(\\d+)?'))).toBe(1);
    expect(await docs.countDocuments(find('$regexFindAll', /([A-Z])(\d+)?/, 'i'))).toBe(1);
  });
});

describe('a regex condition of $pull', () => {
  it('runs on RE2 too', async () => {
    const docs = createEmbeddedDb().collection('pull');
    const evil = `${'a'.repeat(3000)}!`;
    await docs.insertOne({ _id: 1, tags: [evil, 'aa', 'b'] });
    await docs.updateOne({ _id: 1 }, { $pull: { tags: { $regex: '^(a+)+$' } } });
    expect(await docs.findOne({ _id: 1 })).toEqual({ _id: 1, tags: [evil, 'b'] });
  });
});

describe('regexes the embedded engine cannot run in linear time', () => {
  it.each([
    ['a backreference', { name: { $regex: '(a)\\1' } }],
    ['a lookahead', { name: /a(?=b)/ }],
    ['a lookahead in $in', { name: { $in: [/a(?!b)/] } }],
  ])('refuses %s with BadValue', async (_, filter) => {
    const docs = createEmbeddedDb().collection('refused');
    await docs.insertOne({ _id: 1, name: 'ab' });
    await expect(docs.find(filter).toArray()).rejects.toMatchObject({ codeName: 'BadValue' });
  });
});
