import { isOptionError } from '@store/common';
import { describe, expect, it } from 'vitest';
import type { OpenApiOptions } from './options';
import { openapi } from './plugin';

/** The `option` and message `openapi(options)` is refused with (hostile input: any value). */
function refusal(options: unknown): { option: string; message: string } {
  try {
    openapi(options as OpenApiOptions);
  } catch (error) {
    if (!isOptionError(error)) throw error;
    return { option: error.option, message: error.message };
  }
  throw new Error('expected openapi() to throw');
}

describe('openapi(options)', () => {
  it('takes no options, or title, version and description', () => {
    expect(openapi()).toMatchObject({ name: '@store/openapi' });
    expect(openapi({ title: 'Notes', version: '2.0.0', description: 'Our notes.' }).name).toBe(
      '@store/openapi',
    );
    expect(openapi({ title: undefined }).name).toBe('@store/openapi');
  });

  it.each([
    ['an empty title', { title: '' }, 'openapi.title', 'expected a non-empty string'],
    ['a blank version', { version: '  ' }, 'openapi.version', 'expected a non-empty string'],
    [
      'a description that is not text',
      { description: 42 },
      'openapi.description',
      'expected a non-empty string',
    ],
    [
      'an unknown option',
      { titel: 'Notes' },
      'openapi.titel',
      'unknown option (known: title, version, description)',
    ],
    ['options that are not an object', 'Notes', 'openapi', 'expected a plain object'],
    ['true, the old store option', true, 'openapi', 'expected a plain object'],
  ])('refuses %s, naming the option', (_name, options, option, problem) => {
    expect(refusal(options)).toEqual({ option, message: `Invalid @store option "${option}": ${problem}.` });
  });

  it('does not change the options it is given', () => {
    const options = Object.freeze({ title: 'Notes' });
    expect(() => openapi(options)).not.toThrow();
    expect(options).toEqual({ title: 'Notes' });
  });
});
