import safeRegex from 'safe-regex2';
import { LIMITS } from './limits';
import { fail } from './query-error';
import { portablePattern } from './regex-syntax';

/** A validated regex in the form both MongoDB and the embedded engine read identically. */
export interface SafeRegex {
  /** Pattern with `x`, `s` and `m` applied by {@link portablePattern}, so only `i` remains as a flag. */
  source: string;
  /** `'i'` or `''`. */
  flags: string;
}

const FLAGS = /^(?!.*(.).*\1)[imsx]*$/;
const SPECIAL = /[.*+?^${}()|[\]\\]/g;

/** `value` as a regex pattern that matches it literally. */
export function escapeRegex(value: string): string {
  return value.replace(SPECIAL, '\\$&');
}

/**
 * Validates a user regex: at most 256 characters and accepted by `safe-regex2`
 * (`unsafe_regex`), flags a subset of `imsx` without repeats, no NUL, valid syntax, no
 * construct PCRE (MongoDB) and JavaScript (the embedded engine) read differently
 * (`invalid_query`, naming the construct).
 */
export function checkRegex(pattern: string, flags: string, parameter: string): SafeRegex {
  if (pattern.length > LIMITS.regexLength) {
    fail('unsafe_regex', parameter, `${parameter}: regex longer than ${LIMITS.regexLength} characters`);
  }
  if (!FLAGS.test(flags))
    fail('invalid_query', parameter, `${parameter}: regex flags must be taken from "imsx"`);
  if (pattern.includes('\0'))
    fail('invalid_query', parameter, `${parameter}: regex contains a NUL character`);
  const portable = portablePattern(pattern, {
    extended: flags.includes('x'),
    dotAll: flags.includes('s'),
    multiline: flags.includes('m'),
  });
  if ('refused' in portable) {
    fail('invalid_query', parameter, `${parameter}: in the regex, ${portable.refused}`);
  }
  const { source } = portable;
  const jsFlags = flags.includes('i') ? 'i' : '';
  let shape: RegExp;
  try {
    new RegExp(source, jsFlags);
    shape = new RegExp(portable.shape, jsFlags);
  } catch {
    return fail('invalid_query', parameter, `${parameter}: invalid regular expression`);
  }
  if (!safeRegex(shape)) {
    fail(
      'unsafe_regex',
      parameter,
      `${parameter}: regex may backtrack catastrophically (nested quantifiers)`,
    );
  }
  return { source, flags: jsFlags };
}

/** `{ $regex, $options? }` for a validated regex. */
export function regexCondition(re: SafeRegex): Record<string, string> {
  return re.flags ? { $regex: re.source, $options: re.flags } : { $regex: re.source };
}
