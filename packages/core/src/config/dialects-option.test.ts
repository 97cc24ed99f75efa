import { describe, expect, it } from 'vitest';
import { resolveDialects } from './dialects-option';

describe('resolveDialects', () => {
  it('turns both foreign dialects off by default', () => {
    expect(resolveDialects(undefined)).toEqual({ jsonServer: false, simpleRest: false, foreign: false });
    expect(resolveDialects(false)).toEqual({ jsonServer: false, simpleRest: false, foreign: false });
  });

  it('turns both on with true, and each alone', () => {
    expect(resolveDialects(true)).toEqual({ jsonServer: true, simpleRest: true, foreign: true });
    expect(resolveDialects({ jsonServer: true })).toEqual({
      jsonServer: true,
      simpleRest: false,
      foreign: true,
    });
    expect(resolveDialects({ simpleRest: true })).toEqual({
      jsonServer: false,
      simpleRest: true,
      foreign: true,
    });
    expect(resolveDialects({ jsonServer: false, simpleRest: undefined }).foreign).toBe(false);
  });

  it.each([
    ['json-server', /"dialects"/],
    [null, /"dialects"/],
    [{ jsonServer: 'yes' }, /"dialects\.jsonServer"/],
    [{ simpleRest: 1 }, /"dialects\.simpleRest"/],
    [{ openapi: true }, /"dialects\.openapi"/],
  ])('refuses %j naming the option', (value, message) => {
    expect(() => resolveDialects(value)).toThrow(message);
  });
});
