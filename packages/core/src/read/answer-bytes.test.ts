import { isStoreError } from '@store/common';
import { ObjectId } from 'bson';
import { describe, expect, it } from 'vitest';
import { jsonWithin } from './answer-bytes';

const oid = new ObjectId('5f1d7f3e9d1b2c3a4b5c6d7e');
const when = new Date('2024-03-01T10:00:00Z');

/** Values whose JSON text the pieces must reproduce exactly. */
const VALUES: [string, unknown][] = [
  ['a count', { count: 3 }],
  ['an empty list', []],
  ['a page with relations', [{ _id: 1, at: when, ref: oid, comments: [{ _id: 'c', text: 'é "quoted"\n' }] }]],
  ['members JSON leaves out', { a: undefined, b: () => 1, c: Symbol('s'), d: 1 }],
  ['undefined and functions in an array', [undefined, () => 1, Symbol('s'), 2]],
  ['an array with holes', new Array(3)],
  ['nesting past the piece depth', [{ a: { b: { c: { d: [1, { e: [2, 3] }] } } } }]],
  ['a plain value', 'text'],
  ['null', null],
  ['an object with toJSON', { toJSON: () => ({ shown: true }) }],
  ['a prototype-free document', Object.assign(Object.create(null), { _id: 1, tags: ['x'] })],
  ['astral characters', [{ emoji: '😀'.repeat(3), key: 'ключ' }]],
  [
    'a long page of small documents, written a few per call',
    Array.from({ length: 100 }, (_, i) => (i % 7 === 3 ? undefined : { _id: i, at: when, tags: ['a', i] })),
  ],
];

async function refusal(run: () => Promise<unknown>): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    if (isStoreError(error)) return { status: error.status, code: error.code, ...error.extensions };
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('jsonWithin', () => {
  it.each(VALUES)('writes %s exactly as JSON.stringify does, with its UTF-8 length', async (_name, value) => {
    const expected = JSON.stringify(value);
    const text = { body: expected, bytes: Buffer.byteLength(expected) };
    expect(await jsonWithin(value, 1_000_000)).toEqual(text);
    expect(await jsonWithin(value, 1_000_000, { relations: false })).toEqual(text);
  });

  it('answers an answer of exactly the limit, and refuses one byte more with 422 budget_exceeded', async () => {
    const value = [{ text: 'x'.repeat(100) }];
    const bytes = Buffer.byteLength(JSON.stringify(value));
    expect((await jsonWithin(value, bytes)).bytes).toBe(bytes);
    expect(await refusal(() => jsonWithin(value, bytes - 1))).toEqual({
      status: 422,
      code: 'budget_exceeded',
      budget: 'answerBytes',
      limit: bytes - 1,
    });
  });

  it('counts bytes, not characters: multi-byte text past the limit is refused', async () => {
    const value = { text: 'é'.repeat(600) };
    expect(JSON.stringify(value).length).toBeLessThan(1000);
    expect(await refusal(() => jsonWithin(value, 1000))).toMatchObject({ code: 'budget_exceeded' });
  });

  it('names budgets.answerBytes and its value in the detail', async () => {
    try {
      await jsonWithin(['x'.repeat(50)], 10);
    } catch (error) {
      expect(isStoreError(error) && error.detail).toMatch(/larger than 10 bytes.*budgets\.answerBytes/);
      return;
    }
    throw new Error('expected a refusal');
  });

  it('serializes a large answer in slices: work queued meanwhile runs before it ends', async () => {
    const page = Array.from({ length: 40 }, (_, i) => ({ _id: i, text: 'x'.repeat(100_000) }));
    const order: string[] = [];
    setImmediate(() => order.push('other work'));
    const text = await jsonWithin(page, 100_000_000, { sliceMs: 0 });
    order.push('answer');
    expect(order).toEqual(['other work', 'answer']);
    expect(text.body).toBe(JSON.stringify(page));
  });

  it('refuses a page whose documents grow past the budget after at most a piece of them', async () => {
    let read = 0;
    const page = Array.from({ length: 200 }, (_, i) => ({
      get text() {
        read += 1;
        return i < 50 ? 'x' : 'y'.repeat(10_000);
      },
    }));
    expect(await refusal(() => jsonWithin(page, 100_000, { relations: false }))).toMatchObject({
      code: 'budget_exceeded',
    });
    // 50 small documents, then large ones until past the budget: one piece (at most 32) past it.
    expect(read).toBeLessThanOrEqual(50 + 10 + 32);
  });

  it('refuses a short page written in one call when its documents after the first are large', async () => {
    const page = Array.from({ length: 20 }, (_, i) => ({ text: i === 0 ? 'x' : 'y'.repeat(10_000) }));
    expect(await refusal(() => jsonWithin(page, 100_000, { relations: false }))).toMatchObject({
      code: 'budget_exceeded',
    });
    const small = Array.from({ length: 20 }, () => ({ text: 'x'.repeat(100) }));
    expect((await jsonWithin(small, 100_000, { relations: false })).body).toBe(JSON.stringify(small));
  });

  it('refuses an answer past the budget without writing the rest of it', async () => {
    let read = 0;
    const page = Array.from({ length: 100 }, (_, i) => ({
      get text() {
        read += 1;
        return `${i}`.repeat(10_000);
      },
    }));
    expect(await refusal(() => jsonWithin(page, 50_000, { sliceMs: 0 }))).toMatchObject({
      code: 'budget_exceeded',
    });
    // Looked at until it holds more than a few documents (17 reads), written until past the budget (6).
    expect(read).toBeLessThan(30);
  });
});
