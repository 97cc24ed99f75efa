/**
 * Regex syntax both engines read alike. MongoDB matches with PCRE2 (UTF mode, no UCP), the
 * embedded engine with RE2 (re2js, linear time), and the pattern is also carried as a
 * JavaScript RegExp (no `u` flag) through filters, so it must parse there too.
 * {@link portablePattern} rewrites the few everyday constructs whose meaning differs into a
 * form all read the same, and refuses the rest, naming the construct and what to write
 * instead: `unsafe_regex` for what RE2 cannot run (backreferences, lookarounds, atomic groups,
 * possessive quantifiers, recursion), `invalid_query` for what the engines read differently.
 */

/** Why a construct is refused: RE2 cannot run it, or the engines read it differently. */
export type RefusalCode = 'unsafe_regex' | 'invalid_query';

/** Suffix of a refusal for a construct RE2 cannot run in linear time. */
const NOT_LINEAR = 'which RE2 (linear-time matching) cannot run';

/** Escapes PCRE and JavaScript read differently (or one of them refuses), by the letter after `\`. */
const REFUSED_ESCAPES: Readonly<Record<string, string>> = {
  A: 'is the start of the text in PCRE but a literal "A" in JavaScript: use ^',
  Z: 'is the end of the text in PCRE but a literal "Z" in JavaScript: use $',
  z: 'is the end of the text in PCRE but a literal "z" in JavaScript: use $',
  G: 'is the first matching position in PCRE but a literal "G" in JavaScript',
  h: 'is horizontal white space in PCRE but a literal "h" in JavaScript: use [ \\t]',
  H: 'is "not horizontal white space" in PCRE but a literal "H" in JavaScript: use [^ \\t]',
  v: 'is any vertical white space in PCRE but only the vertical tab in JavaScript: use \\x0B or [\\n\\r]',
  V: 'is "not vertical white space" in PCRE but a literal "V" in JavaScript',
  R: 'is any line break in PCRE but a literal "R" in JavaScript: use \\r?\\n',
  N: 'is "not a newline" in PCRE but a literal "N" in JavaScript: use [^\\n]',
  K: 'resets the match start in PCRE but is a literal "K" in JavaScript',
  Q: 'starts a quoted literal in PCRE but is a literal "Q" in JavaScript: escape each special character instead',
  E: 'ends a quoted literal in PCRE but is a literal "E" in JavaScript: escape each special character instead',
  p: 'is a Unicode property in PCRE but a literal "p" in JavaScript',
  P: 'is a Unicode property in PCRE but a literal "P" in JavaScript',
  X: 'is a grapheme cluster in PCRE but a literal "X" in JavaScript',
  C: 'is one code unit in PCRE but a literal "C" in JavaScript',
  e: 'is the escape character in PCRE but a literal "e" in JavaScript: use \\x1B',
  a: 'is the bell character in PCRE but a literal "a" in JavaScript: use \\x07',
  g: `is a backreference, ${NOT_LINEAR}`,
  k: `is a named backreference, ${NOT_LINEAR}`,
  o: 'is an octal escape in PCRE but a literal "o" in JavaScript: use \\xHH',
  u: 'is refused by PCRE2 (MongoDB error 51091): write the character itself or \\xHH',
};

/** Escapes refused as `unsafe_regex`, by the letter after `\`. */
const NOT_LINEAR_ESCAPES = new Set(['g', 'k']);

/** Why `\1`-`\9` is refused. */
const BACKREFERENCE = `is a backreference, ${NOT_LINEAR}: repeat the group instead`;

/** Why `\0` followed by a digit is refused. */
const OCTAL_ESCAPE = 'is an octal escape, read differently by PCRE, RE2 and JavaScript: use \\xHH';

/** Why any other escaped letter is refused. */
const OTHER_ESCAPE = 'is an error in PCRE but a literal letter in JavaScript: drop the backslash';

/** `(?` constructs, by the text after `(?`, that RE2 cannot run (`unsafe_regex`). */
const NOT_LINEAR_GROUPS: ReadonlyArray<readonly [RegExp, string]> = [
  [/^</, `is a lookbehind, ${NOT_LINEAR}`],
  [/^[=!]/, `is a lookahead, ${NOT_LINEAR}`],
  [/^>/, `is an atomic group, ${NOT_LINEAR}`],
  [/^[R&+\d]/, `is a subroutine call or recursion, ${NOT_LINEAR}`],
  [/^\(/, `is a conditional group, ${NOT_LINEAR}`],
];

/** `(?` constructs, by the text after `(?`, that only PCRE reads. */
const REFUSED_GROUPS: ReadonlyArray<readonly [RegExp, string]> = [
  [/^[imsxnUJ^-]/, 'sets inline flags, which JavaScript does not have: pass flags in the flags argument'],
  [/^#/, 'is a comment group, which JavaScript does not have: use the x flag and #'],
  [/^\|/, 'is a branch-reset group, which JavaScript does not have'],
  [/^[P']/, 'is a PCRE-only named group: write (?<name>...)'],
  [/^C/, 'is a callout, which JavaScript does not have'],
];

/** The groups all read alike, by the text after `(`. */
const GROUP_OPENINGS: readonly RegExp[] = [/^\?:/, /^\?<[A-Za-z_][A-Za-z0-9_]{0,31}>/];

/**
 * Constructs rewritten so all engines read them alike. PCRE's `\s` holds the vertical tab,
 * RE2's does not, JavaScript's adds Unicode spaces; PCRE's and RE2's `.` stop only at `\n`,
 * JavaScript's also at `\r`, U+2028 and U+2029. PCRE's `$` (without `m`) also matches before
 * a final newline, RE2's only at the end: the store's `$` is the end, `\z` in both. With `m`,
 * `^` and `$` stay as they are and `m` stays a flag: both see only `\n` as a line break.
 */
const SPACE = '\\t\\n\\x0B\\f\\r ';
const REWRITES = {
  dot: '[^\\n]',
  dotAll: '[\\s\\S]',
  end: '\\z',
  space: `[${SPACE}]`,
  notSpace: `[^${SPACE}]`,
} as const;

/** Escapes both read alike, outside and inside a class. */
const SAME_ESCAPES = new Set(['d', 'D', 'w', 'W', 'b', 'B', 't', 'n', 'f', 'r']);
const SAME_IN_CLASS = new Set(['d', 'w', 'b', 't', 'n', 'f', 'r']);

/** Largest `{n,m}` bound RE2 accepts (PCRE takes up to 65,535). */
const MAX_REPEAT = 1000;

/** Which flags the pattern is rewritten under. */
interface PatternFlags {
  extended: boolean;
  dotAll: boolean;
  multiline: boolean;
}

class Refused extends Error {
  constructor(
    message: string,
    readonly code: RefusalCode,
  ) {
    super(message);
  }
}

function refuse(construct: string, why: string, code: RefusalCode = 'invalid_query'): never {
  throw new Refused(`${construct} ${why}`, code);
}

/** State of one scan over a pattern. */
interface Scan {
  readonly p: string;
  readonly flags: PatternFlags;
  i: number;
  out: string;
  /** Whether the last item can take a quantifier. */
  repeatable: boolean;
  /** How many times the last item repeats its innermost part through nested `{n,m}` (RE2 takes 1000). */
  lastRepeat: number;
  /** The largest such count inside the pattern, then inside each open group. */
  repeats: number[];
}

/** Records the nested repeat count of the item just scanned. */
function repeated(s: Scan, count: number): void {
  s.lastRepeat = count;
  const top = s.repeats.length - 1;
  s.repeats[top] = Math.max(s.repeats[top] ?? 1, count);
}

function emit(s: Scan, text: string): void {
  s.out += text;
}

/** `\x`: the escape at `s.i` (outside a class), translated. */
function translateEscape(s: Scan, inClass: boolean): string {
  const c = s.p[s.i + 1] ?? '';
  const construct = `\\${c}`;
  s.i += 2;
  if (/[^\x21-\x7e]/.test(c))
    refuse(
      construct,
      'escapes a character that is not ASCII punctuation, which RE2 refuses: drop the backslash',
    );
  if (!/[A-Za-z0-9]/.test(c)) return construct;
  if (c === 's') return inClass ? SPACE : REWRITES.space;
  // Backspace inside a class in PCRE and JavaScript; RE2 has no `[\b]`.
  if (c === 'b' && inClass) return '\\x08';
  if (c === 'S')
    return inClass
      ? refuse('\\S inside [...]', 'has no portable form: list the characters')
      : REWRITES.notSpace;
  if (inClass ? SAME_IN_CLASS.has(c) : SAME_ESCAPES.has(c)) return construct;
  if (c === 'x') {
    const hex = s.p.slice(s.i, s.i + 2);
    if (!/^[0-9A-Fa-f]{2}$/.test(hex)) refuse('\\x', 'needs exactly two hex digits (\\x{...} is PCRE only)');
    s.i += 2;
    return construct + hex;
  }
  if (c === 'c') {
    const letter = s.p[s.i] ?? '';
    if (!/^[A-Za-z]$/.test(letter)) refuse('\\c', 'must be followed by a letter');
    s.i += 1;
    // RE2 has no \c: the control character it names, as \xHH.
    return `\\x${(letter.toUpperCase().charCodeAt(0) % 32).toString(16).toUpperCase().padStart(2, '0')}`;
  }
  if (c === '0') {
    if (!/[0-9]/.test(s.p[s.i] ?? '')) return construct;
    return refuse(construct, OCTAL_ESCAPE);
  }
  if (/[0-9]/.test(c)) return refuse(construct, BACKREFERENCE, 'unsafe_regex');
  return refuse(
    construct,
    REFUSED_ESCAPES[c] ?? (inClass && /[DWB]/.test(c) ? 'inside [...] has no portable form' : OTHER_ESCAPE),
    NOT_LINEAR_ESCAPES.has(c) ? 'unsafe_regex' : 'invalid_query',
  );
}

/** `[...]`, from `[` at `s.i`, copied with its escapes translated. */
function characterClass(s: Scan): void {
  const start = s.i;
  s.i += s.p[s.i + 1] === '^' ? 2 : 1;
  if (s.p[s.i] === ']')
    refuse(
      s.p.slice(start, s.i + 1),
      'reads differently in PCRE (a literal "]") and JavaScript (an empty class): write \\]',
    );
  let out = s.p.slice(start, s.i);
  while (s.i < s.p.length && s.p[s.i] !== ']') {
    const c = s.p[s.i] as string;
    if (/[\ud800-\udfff]/.test(c))
      refuse(
        `[${s.p.slice(s.i, s.i + 2)}]`,
        'holds a character outside the BMP, which JavaScript reads as two: use (?:a|b) instead',
      );
    if (c === '[' && /[:.=]/.test(s.p[s.i + 1] ?? ''))
      refuse(`[${s.p[s.i + 1]}`, 'inside [...] is a POSIX class in PCRE: write \\[');
    if (c === '\\') {
      const shorthand = /^\\[dws]$/.test(s.p.slice(s.i, s.i + 2));
      if (shorthand && (out.endsWith('-') || s.p[s.i + 2] === '-'))
        refuse(
          `${s.p.slice(s.i, s.i + 2)} next to -`,
          'makes a range of a class shorthand, which PCRE refuses: put - last',
        );
      out += translateEscape(s, true);
    } else {
      out += c;
      s.i += 1;
    }
  }
  if (s.i >= s.p.length) refuse(s.p.slice(start, start + 2), 'opens a class [...] that is never closed');
  emit(s, `${out}]`);
  s.i += 1;
  s.repeatable = true;
  s.lastRepeat = 1;
}

/** `(`: a group all read alike, or a refusal naming the construct. */
function openGroup(s: Scan): void {
  const rest = s.p.slice(s.i + 1);
  if (rest.startsWith('*'))
    refuse(`(${rest.slice(0, 5)}`, 'is a PCRE verb or option, which RE2 and JavaScript do not have');
  let opening = '(';
  if (rest.startsWith('?')) {
    const known = GROUP_OPENINGS.find((re) => re.test(rest));
    if (!known) {
      const after = rest.slice(1);
      const linear = NOT_LINEAR_GROUPS.find(([re]) => re.test(after));
      if (linear) refuse(`(?${/^<[=!]?|^./.exec(after)?.[0] ?? ''}`, linear[1], 'unsafe_regex');
      const why = REFUSED_GROUPS.find(([re]) => re.test(after))?.[1];
      const shown = /^[imsxnUJ^-]/.test(after)
        ? (/^[^):]*[):]?/.exec(after) as RegExpExecArray)[0]
        : after.slice(0, 1);
      refuse(`(?${shown}`, why ?? 'is not a group JavaScript reads');
    }
    opening += (rest.match(known) as RegExpMatchArray)[0];
  }
  emit(s, opening);
  s.repeats.push(1);
  s.i += opening.length;
  s.repeatable = false;
}

/** A quantifier at `s.i` (`*`, `+`, `?`, `{n}`, `{n,}`, `{n,m}`), checked and copied. */
function quantifier(s: Scan): void {
  const c = s.p[s.i] as string;
  let q = c;
  if (c === '{') {
    const m = /^\{(\d+)(,(\d*))?\}/.exec(s.p.slice(s.i));
    if (!m) {
      refuse('{', 'that starts no {n}, {n,} or {n,m} is read differently by PCRE and JavaScript: write \\{');
    }
    if (Number(m[1]) > MAX_REPEAT || Number(m[3] ?? 0) > MAX_REPEAT)
      refuse(m[0], `exceeds ${MAX_REPEAT}, the largest repeat RE2 takes`);
    q = m[0];
    // RE2 also refuses nested repeats past 1000 in all (it counts the maximum, else the minimum).
    const count = Number(m[3] || m[1]);
    const nested = count > 0 ? count * s.lastRepeat : s.lastRepeat;
    if (nested > MAX_REPEAT)
      refuse(
        m[0],
        `repeats a part already repeated, ${nested} times in all: ${NOT_LINEAR} past ${MAX_REPEAT}`,
        'unsafe_regex',
      );
    repeated(s, nested);
  }
  if (!s.repeatable) refuse(q, 'follows nothing that can repeat (an anchor, an assertion or the start)');
  s.i += q.length;
  if (s.p[s.i] === '+') refuse(`${q}+`, `is a possessive quantifier, ${NOT_LINEAR}`, 'unsafe_regex');
  if (s.p[s.i] === '?') {
    q += '?';
    s.i += 1;
  }
  emit(s, q);
  s.repeatable = false;
}

/** One item outside a class at `s.i`. */
function item(s: Scan): void {
  const { p, flags } = s;
  const c = p[s.i] as string;
  if (c === '\\') {
    const assertion = /[bB]/.test(p[s.i + 1] ?? '');
    emit(s, translateEscape(s, false));
    s.repeatable = !assertion;
    s.lastRepeat = 1;
  } else if (c === '[') {
    characterClass(s);
  } else if (c === '(') {
    openGroup(s);
  } else if (c === ')') {
    emit(s, c);
    s.i += 1;
    s.repeatable = true;
    // An unmatched `)` is left for the syntax check, which refuses it.
    repeated(s, (s.repeats.length > 1 ? s.repeats.pop() : 1) ?? 1);
  } else if ('*+?{'.includes(c)) {
    quantifier(s);
  } else if (flags.extended && /\s/.test(c)) {
    s.i += 1;
  } else if (flags.extended && c === '#') {
    while (s.i < p.length && p[s.i] !== '\n') s.i += 1;
  } else {
    const code = c.charCodeAt(0);
    const width = code >= 0xd800 && code <= 0xdbff ? 2 : 1;
    emit(s, literal(flags, c) ?? p.slice(s.i, s.i + width));
    s.repeatable = !'|^$'.includes(c);
    s.lastRepeat = 1;
    s.i += width;
    if (width === 2 && /^[*+?{]/.test(p.slice(s.i))) {
      refuse(
        `${p.slice(s.i - 2, s.i + 1)}`,
        'repeats half of a character outside the BMP in JavaScript: wrap it in (?:...)',
      );
    }
  }
}

/** The rewrite of `.` and `$` under the flags; `undefined` for a character copied as it is. */
function literal(flags: PatternFlags, c: string): string | undefined {
  if (c === '.') return flags.dotAll ? REWRITES.dotAll : REWRITES.dot;
  if (c === '$' && !flags.multiline) return REWRITES.end;
  return undefined;
}

/**
 * `pattern` with `x` and `s` applied and `.`, `$`, `\s`, `\S` rewritten, so that PCRE
 * (MongoDB) and RE2 (the embedded engine) match the same strings with at most the `i` and `m`
 * flags; or, for a construct they read differently or RE2 cannot run, the reason to refuse it
 * (naming it) and the error code.
 */
export function portablePattern(
  pattern: string,
  flags: PatternFlags,
): { source: string } | { refused: string; code: RefusalCode } {
  const s: Scan = { p: pattern, flags, i: 0, out: '', repeatable: false, lastRepeat: 1, repeats: [1] };
  try {
    while (s.i < pattern.length) item(s);
  } catch (error) {
    if (error instanceof Refused) return { refused: error.message, code: error.code };
    throw error;
  }
  return { source: s.out };
}
