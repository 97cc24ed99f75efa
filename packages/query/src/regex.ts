import safeRegex from 'safe-regex2';
import { LIMITS } from './limits';
import { fail } from './query-error';
import { portablePattern } from './regex-syntax';

/** A validated regex in the form MongoDB (PCRE) and the embedded engine (RE2) read identically. */
export interface SafeRegex {
  /** Pattern with `x` and `s` applied by {@link portablePattern}, so only `i` and `m` remain as flags. */
  source: string;
  /** A subset of `'im'`. */
  flags: string;
}

const FLAGS = /^(?!.*(.).*\1)[imsx]*$/;
const SPECIAL = /[.*+?^${}()|[\]\\]/g;

/** `value` as a regex pattern that matches it literally. */
export function escapeRegex(value: string): string {
  return value.replace(SPECIAL, '\\$&');
}

/**
 * Validates a user regex: at most 256 characters, no construct RE2 cannot run in linear time
 * (backreferences, lookarounds, ...) and accepted by `safe-regex2` (`unsafe_regex`); flags a
 * subset of `imsx` without repeats, no NUL, valid syntax, no construct PCRE (MongoDB) and RE2
 * (the embedded engine) read differently (`invalid_query`, naming the construct).
 *
 * `safe-regex2` stays although the embedded engine matches in linear time: MongoDB's PCRE
 * backtracks, and a nested quantifier such as `(a+)+$` would hold a MongoDB thread until
 * `maxTimeMS`. It catches only star height above one, so the other exponential and
 * polynomial shapes (`(a|a)*$`, `.*.*=`) still reach PCRE, bounded there by `maxTimeMS`.
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
    fail(portable.code, parameter, `${parameter}: in the regex, ${portable.refused}`);
  }
  const { source } = portable;
  const kept = `${flags.includes('i') ? 'i' : ''}${flags.includes('m') ? 'm' : ''}`;
  let shape: RegExp;
  try {
    shape = new RegExp(source, kept);
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
  return { source, flags: kept };
}

/** `{ $regex, $options? }` for a validated regex. */
export function regexCondition(re: SafeRegex): Record<string, string> {
  return re.flags ? { $regex: re.source, $options: re.flags } : { $regex: re.source };
}
