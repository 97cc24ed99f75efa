import { describe, expect, it } from 'vitest';
import { parseByteSize } from './byte-size';

describe('parseByteSize', () => {
  it.each([
    [0, 0],
    [10, 10],
    ['10', 10],
    [' 2kb ', 2048],
    ['3 mb', 3 * 1024 ** 2],
    ['0.5kb', 512],
  ])('reads %j as %i bytes', (input, bytes) => {
    expect(parseByteSize(input)).toBe(bytes);
  });

  it.each([[-1], [1.5], [Number.NaN], ['abc'], ['1 tb'], ['-1kb'], [''], [null], [{}]])(
    'rejects %j',
    (input) => {
      expect(parseByteSize(input)).toBeUndefined();
    },
  );
});
