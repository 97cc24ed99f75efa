import safeRegex from 'safe-regex2';
import { LIMITS } from './limits';
import { fail } from './query-error';

/** A validated regex in the form both MongoDB and the embedded engine read identically. */
export interface SafeRegex {
  /** Pattern with `x` and `s` already applied, so only `i` and `m` remain as flags. */
  source: string;
  /** A subset of `im`. */
  flags: string;
}

const FLAGS = /^(?!.*(.).*\1)[imsx]*$/;
const SPECIAL = /[.*+?^${}()|[\]\\]/g;

/** `value` as a regex pattern that matches it literally. */
export function escapeRegex(value: string): string {
  return value.replace(SPECIAL, '\\$&');
}

/**
 * Applies the `x` (ignore whitespace and `#` comments) and `s` (dot matches newline) flags
 * to the pattern itself. JavaScript has no `x`, and the BSON serializer drops `s` from a
 * RegExp, so the compiled output carries neither.
 */
function applyFlags(pattern: string, extended: boolean, dotAll: boolean): string {
  if (!extended && !dotAll) return pattern;
  let out = '';
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i] as string;
    if (c === '\\') {
      out += c + (pattern[i + 1] ?? '');
      i++;
    } else if (inClass) {
      if (c === ']') inClass = false;
      out += c;
    } else if (c === '[') {
      inClass = true;
      out += c;
    } else if (extended && /\s/.test(c)) {
      // ignored
    } else if (extended && c === '#') {
      while (i + 1 < pattern.length && pattern[i + 1] !== '\n') i++;
    } else if (dotAll && c === '.') {
      out += '[\\s\\S]';
    } else {
      out += c;
    }
  }
  return out;
}

/**
 * Validates a user regex: at most 256 characters and accepted by `safe-regex2`
 * (`unsafe_regex`), flags a subset of `imsx` without repeats, no NUL, valid syntax
 * (`invalid_query`).
 */
export function checkRegex(pattern: string, flags: string, parameter: string): SafeRegex {
  if (pattern.length > LIMITS.regexLength) {
    fail('unsafe_regex', parameter, `${parameter}: regex longer than ${LIMITS.regexLength} characters`);
  }
  if (!FLAGS.test(flags))
    fail('invalid_query', parameter, `${parameter}: regex flags must be taken from "imsx"`);
  if (pattern.includes('\0'))
    fail('invalid_query', parameter, `${parameter}: regex contains a NUL character`);
  const source = applyFlags(pattern, flags.includes('x'), flags.includes('s'));
  const jsFlags = flags.replace(/[sx]/g, '');
  let compiled: RegExp;
  try {
    compiled = new RegExp(source, jsFlags);
  } catch {
    return fail('invalid_query', parameter, `${parameter}: invalid regular expression`);
  }
  if (!safeRegex(compiled)) {
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
