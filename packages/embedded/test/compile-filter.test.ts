/** Filters compiled with options built once per collection: each collection keeps its own operators. */
import { describe, expect, it } from 'vitest';
import { compileFilter } from '../src/compile-filter';
import { CollectionIndexes } from '../src/indexes';

describe('compileFilter', () => {
  it('refuses the internal operator that hands over mingo options, with a BadValue', () => {
    const indexes = new CollectionIndexes();
    compileFilter({ a: 1 }, indexes);
    expect(() => compileFilter({ a: { $__embeddedOptions: 1 } }, indexes)).toThrow(
      expect.objectContaining({ codeName: 'BadValue' }),
    );
  });

  it("reads each collection's own text index, however many filters were compiled before", () => {
    const [withText, without] = [new CollectionIndexes(), new CollectionIndexes()];
    withText.create({ body: 'text' }, {}, []);
    for (let i = 0; i < 3; i++) {
      expect(compileFilter({ $text: { $search: 'cat' } }, withText).test({ _id: 1, body: 'a cat' })).toBe(
        true,
      );
      expect(() =>
        compileFilter({ $text: { $search: 'cat' } }, without).test({ _id: 1, body: 'a cat' }),
      ).toThrow(/text index required/);
    }
  });

  it.each([
    [{ n: { $gt: 1 } }, { n: 2 }, true],
    [{ n: { $in: [1, 2] } }, { n: 2 }, true],
    [{ $expr: { $gt: ['$n', 1] } }, { n: 2 }, true],
    [{ $expr: { $gt: ['$n', 1] } }, { n: 0 }, false],
  ])('compiles %j the same way every time', (filter, doc, expected) => {
    const indexes = new CollectionIndexes();
    for (let i = 0; i < 3; i++) expect(compileFilter(filter, indexes).test(doc)).toBe(expected);
  });
});
