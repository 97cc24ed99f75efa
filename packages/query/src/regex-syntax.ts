/**
 * Regex syntax both engines read alike. MongoDB matches with PCRE2 (UTF mode, no UCP), the
 * embedded engine with JavaScript's RegExp (no `u` flag). {@link portablePattern} rewrites
 * the few everyday constructs whose meaning differs into a form both read the same, and
 * refuses the rest, naming the construct and what to write instead.
 */

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
  g: 'is a backreference in PCRE but a literal "g" in JavaScript',
  k: 'is a named backreference: PCRE fails where the group took no part in the match, JavaScript matches the empty string',
  o: 'is an octal escape in PCRE but a literal "o" in JavaScript: use \\xHH',
  u: 'is refused by PCRE2 (MongoDB error 51091): write the character itself or \\xHH',
};

/** Why `\<digit>` is refused: backreferences and octal escapes. */
const DIGIT_ESCAPE =
  'is a backreference or an octal escape: PCRE fails where the group took no part in the match and JavaScript matches the empty string (or reads a literal); repeat the group instead, or use \\xHH';

/** Why any other escaped letter is refused. */
const OTHER_ESCAPE = 'is an error in PCRE but a literal letter in JavaScript: drop the backslash';

/** `(?` constructs, by the text after `(?`, that only PCRE reads. */
const REFUSED_GROUPS: ReadonlyArray<readonly [RegExp, string]> = [
  [/^>/, 'is an atomic group, which JavaScript does not have'],
  [/^[imsxnUJ^-]/, 'sets inline flags, which JavaScript does not have: pass flags in the flags argument'],
  [/^#/, 'is a comment group, which JavaScript does not have: use the x flag and #'],
  [/^\|/, 'is a branch-reset group, which JavaScript does not have'],
  [/^[P']/, 'is a PCRE-only named group: write (?<name>...)'],
  [/^[R&+\d]/, 'is a subroutine call, which JavaScript does not have'],
  [/^\(/, 'is a conditional group, which JavaScript does not have'],
  [/^C/, 'is a callout, which JavaScript does not have'],
];

/** The groups both read alike, by the text after `(`. */
const GROUP_OPENINGS: ReadonlyArray<readonly [RegExp, GroupKind]> = [
  [/^\?:/, 'plain'],
  [/^\?[=!]/, 'ahead'],
  [/^\?<[=!]/, 'behind'],
  [/^\?<[A-Za-z_][A-Za-z0-9_]{0,31}>/, 'plain'],
];

type GroupKind = 'plain' | 'ahead' | 'behind';

/**
 * Constructs rewritten so both engines read them alike. PCRE's `\s` is ASCII white space,
 * JavaScript's adds Unicode spaces; PCRE's `.` stops only at `\n`, JavaScript's also at `\r`,
 * U+2028 and U+2029; PCRE's `$` also matches before a final newline, and with `m` its `^` and
 * `$` see only `\n` as a line break.
 */
const SPACE = '\\t\\n\\x0B\\f\\r ';
const REWRITES = {
  dot: '[^\\n]',
  dotAll: '[\\s\\S]',
  end: '(?![\\s\\S])',
  lineEnd: '(?=\\n|(?![\\s\\S]))',
  lineStart: '(?:(?<![\\s\\S])|(?<=\\n)(?=[\\s\\S]))',
  space: `[${SPACE}]`,
  notSpace: `[^${SPACE}]`,
} as const;

/** Escapes both read alike, outside and inside a class. */
const SAME_ESCAPES = new Set(['d', 'D', 'w', 'W', 'b', 'B', 't', 'n', 'f', 'r']);
const SAME_IN_CLASS = new Set(['d', 'w', 'b', 't', 'n', 'f', 'r']);

/** Largest `{n,m}` bound PCRE accepts. */
const MAX_REPEAT = 65_535;

/** Which flags the pattern is rewritten under. */
interface PatternFlags {
  extended: boolean;
  dotAll: boolean;
  multiline: boolean;
}

class Refused extends Error {}

function refuse(construct: string, why: string): never {
  throw new Refused(`${construct} ${why}`);
}

/** State of one scan over a pattern. */
interface Scan {
  readonly p: string;
  readonly flags: PatternFlags;
  i: number;
  out: string;
  /** `out` with zero-width rewrites and lookbehinds in plain form, for the ReDoS check (`safe-regex2` cannot parse lookbehinds). */
  shape: string;
  /** Whether the last item can take a quantifier. */
  repeatable: boolean;
  groups: GroupKind[];
}

function emit(s: Scan, text: string, shape = text): void {
  s.out += text;
  s.shape += shape;
}

const insideBehind = (s: Scan) => s.groups.includes('behind');

/** `\x`: the escape at `s.i` (outside a class), translated. */
function translateEscape(s: Scan, inClass: boolean): string {
  const c = s.p[s.i + 1] ?? '';
  const construct = `\\${c}`;
  s.i += 2;
  if (!/[A-Za-z0-9]/.test(c)) return construct;
  if (c === 's') return inClass ? SPACE : REWRITES.space;
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
    return construct + letter;
  }
  if (c === '0' && !/[0-9]/.test(s.p[s.i] ?? '')) return construct;
  if (/[0-9]/.test(c)) return refuse(construct, DIGIT_ESCAPE);
  return refuse(
    construct,
    REFUSED_ESCAPES[c] ?? (inClass && /[DWB]/.test(c) ? 'inside [...] has no portable form' : OTHER_ESCAPE),
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
  emit(s, `${out}]`);
  s.i += 1;
  s.repeatable = true;
}

/** `(`: a group both read alike, or a refusal naming the construct. */
function openGroup(s: Scan): void {
  const rest = s.p.slice(s.i + 1);
  if (rest.startsWith('*'))
    refuse(`(${rest.slice(0, 5)}`, 'is a PCRE verb or option, which JavaScript does not have');
  let kind: GroupKind = 'plain';
  let opening = '(';
  if (rest.startsWith('?')) {
    const known = GROUP_OPENINGS.find(([re]) => re.test(rest));
    if (!known) {
      const after = rest.slice(1);
      const why = REFUSED_GROUPS.find(([re]) => re.test(after))?.[1];
      const shown = /^[imsxnUJ^-]/.test(after)
        ? (/^[^):]*[):]?/.exec(after) as RegExpExecArray)[0]
        : after.slice(0, 1);
      refuse(`(?${shown}`, why ?? 'is not a group JavaScript reads');
    }
    const [re, k] = known as readonly [RegExp, GroupKind];
    kind = k;
    opening += (rest.match(re) as RegExpMatchArray)[0];
  }
  s.groups.push(kind);
  emit(s, opening, kind === 'behind' ? '(?:' : opening);
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
      refuse(m[0], `exceeds ${MAX_REPEAT}, the largest repeat PCRE takes`);
    q = m[0];
    if (insideBehind(s) && m[2] !== undefined)
      refuse(`${q} inside (?<=...)`, 'makes a lookbehind of variable length, which PCRE refuses');
  } else if (insideBehind(s)) {
    refuse(`${c} inside (?<=...)`, 'makes a lookbehind of variable length, which PCRE refuses');
  }
  if (!s.repeatable) refuse(q, 'follows nothing that can repeat (an anchor, an assertion or the start)');
  s.i += q.length;
  if (s.p[s.i] === '+') refuse(`${q}+`, 'is a possessive quantifier, which JavaScript does not have');
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
  } else if (c === '[') {
    characterClass(s);
  } else if (c === '(') {
    openGroup(s);
  } else if (c === ')') {
    const kind = s.groups.pop();
    emit(s, c);
    s.i += 1;
    s.repeatable = kind === 'plain';
  } else if ('*+?{'.includes(c)) {
    quantifier(s);
  } else if (flags.extended && /\s/.test(c)) {
    s.i += 1;
  } else if (flags.extended && c === '#') {
    while (s.i < p.length && p[s.i] !== '\n') s.i += 1;
  } else {
    const code = c.charCodeAt(0);
    const width = code >= 0xd800 && code <= 0xdbff ? 2 : 1;
    const rewrite = literal(s, c);
    emit(s, rewrite ?? p.slice(s.i, s.i + width), c === '^' || c === '$' ? c : undefined);
    s.repeatable = !'|^$'.includes(c);
    s.i += width;
    if (width === 2 && /^[*+?{]/.test(p.slice(s.i))) {
      refuse(
        `${p.slice(s.i - 2, s.i + 1)}`,
        'repeats half of a character outside the BMP in JavaScript: wrap it in (?:...)',
      );
    }
  }
}

/** The rewrite of `.`, `^`, `$` under the flags; `undefined` for a character copied as it is. */
function literal(s: Scan, c: string): string | undefined {
  const { flags } = s;
  if (c === '.') return flags.dotAll ? REWRITES.dotAll : REWRITES.dot;
  if (c === '$') return flags.multiline ? REWRITES.lineEnd : REWRITES.end;
  if (c === '^') return flags.multiline ? REWRITES.lineStart : '^';
  if (c === '|' && s.groups.indexOf('behind') >= 0 && s.groups.at(-1) !== 'behind') {
    refuse(
      '| inside a group inside (?<=...)',
      'makes a lookbehind of variable length, which PCRE refuses: split it into top-level alternatives',
    );
  }
  return undefined;
}

/**
 * `pattern` with `x`, `s` and `m` applied and `.`, `^`, `$`, `\s`, `\S` rewritten, so that
 * PCRE (MongoDB) and JavaScript (the embedded engine) match the same strings with at most the
 * `i` flag; or, for a construct they read differently, the reason to refuse it (naming it).
 */
export function portablePattern(
  pattern: string,
  flags: PatternFlags,
): { source: string; shape: string } | { refused: string } {
  const s: Scan = { p: pattern, flags, i: 0, out: '', shape: '', repeatable: false, groups: [] };
  try {
    while (s.i < pattern.length) item(s);
  } catch (error) {
    if (error instanceof Refused) return { refused: error.message };
    throw error;
  }
  return { source: s.out, shape: s.shape };
}
