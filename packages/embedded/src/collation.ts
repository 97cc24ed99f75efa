/**
 * MongoDB's collation documents, parsed and checked with MongoDB's errors, and the string order
 * they ask for built on `Intl.Collator` (ICU, as MongoDB's own collation is). Only what ICU
 * through `Intl` computes exactly is accepted: strength 1 to 3, `caseLevel` at strength 1,
 * `caseFirst`, `numericOrdering`, `alternate` (`maxVariable: 'punct'`), a locale's own
 * `backwards` default; the rest is refused by name with NotImplemented (238), never answered
 * in another order. `{ locale: 'simple' }` (or no collation) is binary comparison: undefined.
 * Only strings are collated, wherever they stand (in sub-documents and arrays too; field
 * names stay binary); every other value keeps MongoDB's BSON order (bson-order.ts).
 * `Intl.Collator` always normalizes its input (`normalization: true`); MongoDB's default,
 * `false`, gives the same order on every string in FCD form (all NFC or NFD text but rare
 * exceptions), so it is accepted and computed the same way.
 */

import type { Collation as CollationDocument, Document } from '@store/common';
import { isPlainObject } from '@store/common';
import { compareValues, RANK, typeRank } from './bson-order';
import { EmbeddedDbError } from './errors';

/** A collation as MongoDB describes it (`listIndexes`): every field resolved. */
export interface CollationSpec {
  locale: string;
  caseLevel: boolean;
  caseFirst: 'upper' | 'lower' | 'off';
  strength: number;
  numericOrdering: boolean;
  alternate: 'non-ignorable' | 'shifted';
  maxVariable: 'punct' | 'space';
  normalization: boolean;
  backwards: boolean;
  version: string;
}

/** A parsed, non-simple collation: its description, and the orders it gives. */
export interface Collation {
  readonly spec: Readonly<CollationSpec>;
  /** Identifies the collation (two equal keys order every string alike). */
  readonly key: string;
  /** Two strings in the collation's order: negative, zero (equal under it) or positive. */
  readonly compareStrings: (a: string, b: string) => number;
  /** MongoDB's BSON order of two values, strings (at any depth) in the collation's order. */
  readonly compare: (a: unknown, b: unknown) => number;
}

/** The `collation` option of the engine's methods: a MongoDB collation document. */
export interface CollationOption {
  collation?: CollationDocument;
}

/** The ICU version MongoDB reports in every collation (its bundled ICU). */
const ICU_VERSION = '57.1';

/**
 * The locales MongoDB accepts (those with ICU collation data), in MongoDB's spelling; a locale
 * `Intl` does not hold is refused too.
 */
const LOCALES: ReadonlySet<string> = new Set(
  (
    'af sq am ar hy as az be bn bs bs_Cyrl bg my ca chr zh zh_Hant hr cs da nl dz en en_US ' +
    'en_US_POSIX eo et ee fo fil fi fr fr_CA gl ka de de_AT el gu ha haw he hi hu is ig smn id ga ' +
    'it ja kl kn kk km kok ko ky lkt lo lv ln lt dsb lb mk ms ml mt mr mn ne se nb nn or om ps fa ' +
    'fa_AF pl pt pa ro ru sr sr_Latn si sk sl es sw sv ta te th bo to tr uk hsb ur ug vi wae cy ' +
    'yi yo zu'
  ).split(' '),
);

/** MongoDB's locale variants (`<locale>@collation=<variant>`) as `Intl` names them (`-u-co-`). */
const VARIANTS: Readonly<Record<string, string>> = {
  big5han: 'big5han',
  compat: 'compat',
  dictionary: 'dict',
  eor: 'eor',
  gb2312han: 'gb2312',
  phonebook: 'phonebk',
  pinyin: 'pinyin',
  search: 'search',
  stroke: 'stroke',
  traditional: 'trad',
  unihan: 'unihan',
  zhuyin: 'zhuyin',
};

/** Variants that are the locale's own default order (ICU reports the locale without them). */
const DEFAULT_VARIANTS: Readonly<Record<string, string>> = { zh: 'pinyin', zh_Hant: 'stroke' };

/** Locales whose ICU collation weighs accents from the end of the string (`backwards: true`). */
const BACKWARDS_LOCALES: ReadonlySet<string> = new Set(['fr_CA']);

/** `Intl`'s `caseFirst` as MongoDB names it. */
const CASE_FIRST: Readonly<Record<string, CollationSpec['caseFirst']>> = {
  upper: 'upper',
  lower: 'lower',
  false: 'off',
};

const STRENGTH_SENSITIVITY = { 1: 'base', 2: 'accent', 3: 'variant' } as const;

const FIELDS = [
  'locale',
  'caseLevel',
  'caseFirst',
  'strength',
  'numericOrdering',
  'alternate',
  'maxVariable',
  'normalization',
  'backwards',
  'version',
] as const;

/** The BSON type name MongoDB's messages give a value. */
function bsonTypeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int' : 'double';
  if (typeof value === 'boolean') return 'bool';
  if (typeof value === 'string') return 'string';
  return typeof value === 'object' ? 'object' : typeof value;
}

const shown = (spec: Document): string => JSON.stringify(spec);

function wrongType(field: string, expected: string, value: unknown): never {
  throw new EmbeddedDbError(
    'TypeMismatch',
    `"${field}" had the wrong type. Expected ${expected}, found ${bsonTypeName(value)}`,
  );
}

function booleanField(spec: Document, field: string): boolean | undefined {
  const value = spec[field];
  if (value === undefined) return undefined;
  return typeof value === 'boolean' ? value : wrongType(field, 'bool', value);
}

function stringField<T extends string>(spec: Document, field: string, allowed: readonly T[]): T | undefined {
  const value = spec[field];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') return wrongType(field, 'string', value);
  if ((allowed as readonly string[]).includes(value)) return value as T;
  const choices = allowed.map((choice) => `'${choice}'`).join(', or ');
  throw new EmbeddedDbError('FailedToParse', `Field '${field}' must be ${choices}. Got: ${value}`);
}

function strengthField(spec: Document): number | undefined {
  const value = spec.strength;
  if (value === undefined) return undefined;
  if (typeof value !== 'number') {
    throw new EmbeddedDbError(
      'TypeMismatch',
      `Expected field "strength" to have numeric type, but found ${bsonTypeName(value)}`,
    );
  }
  if (!Number.isSafeInteger(value)) {
    throw new EmbeddedDbError(
      'BadValue',
      `Expected field "strength" to have a value exactly representable as a 64-bit integer, but found ${value}`,
    );
  }
  if (value < 1 || value > 5) {
    throw new EmbeddedDbError(
      'FailedToParse',
      `Field 'strength' must be an integer 1 through 5. Got: ${value}`,
    );
  }
  return value;
}

function notImplemented(what: string): never {
  throw new EmbeddedDbError('NotImplemented', `collation ${what} is not supported by the embedded engine`);
}

/** The locale and variant of `locale`, checked as MongoDB checks it; the BCP 47 tag and usage `Intl` takes. */
function localeOf(locale: string, spec: Document): { tag: string; usage: 'sort' | 'search' } {
  if (locale === '') {
    throw new EmbeddedDbError('BadValue', `Field 'locale' cannot be the empty string in: ${shown(spec)}`);
  }
  const invalid = () => new EmbeddedDbError('BadValue', `Field 'locale' is invalid in: ${shown(spec)}`);
  const [base = '', keywords, ...more] = locale.split('@');
  const variant = keywords === undefined ? undefined : /^collation=([a-z0-9]+)$/.exec(keywords)?.[1];
  if (more.length > 0 || (keywords !== undefined && variant === undefined) || !LOCALES.has(base)) {
    throw invalid();
  }
  const tag = base === 'en_US_POSIX' ? 'en-US-u-va-posix' : base.replaceAll('_', '-');
  if (Intl.Collator.supportedLocalesOf(tag).length === 0) throw invalid();
  if (variant === undefined || variant === DEFAULT_VARIANTS[base]) return { tag, usage: 'sort' };
  const co = VARIANTS[variant];
  if (co === undefined) throw invalid();
  if (co === 'search') return { tag, usage: 'search' };
  const withVariant = `${tag}-u-co-${co}`;
  if (new Intl.Collator(withVariant).resolvedOptions().collation !== co) {
    notImplemented(`locale variant ${locale}`);
  }
  return { tag: withVariant, usage: 'sort' };
}

/** The collation document's fields, checked (MongoDB's messages and codes). */
function readFields(spec: Document) {
  for (const field of Object.keys(spec)) {
    if (!(FIELDS as readonly string[]).includes(field)) {
      throw new EmbeddedDbError(
        'FailedToParse',
        `Collation spec contains unknown field. Collation spec: ${shown(spec)}`,
      );
    }
  }
  return {
    caseLevel: booleanField(spec, 'caseLevel'),
    caseFirst: stringField(spec, 'caseFirst', ['upper', 'lower', 'off'] as const),
    strength: strengthField(spec),
    numericOrdering: booleanField(spec, 'numericOrdering'),
    alternate: stringField(spec, 'alternate', ['non-ignorable', 'shifted'] as const),
    maxVariable: stringField(spec, 'maxVariable', ['punct', 'space'] as const),
    normalization: booleanField(spec, 'normalization'),
    backwards: booleanField(spec, 'backwards'),
  };
}

/** MongoDB's checks of option combinations (BadValue). */
function checkCombination(resolved: CollationSpec): void {
  if (resolved.backwards && resolved.strength === 1) {
    throw new EmbeddedDbError(
      'BadValue',
      `'backwards' is invalid with 'strength' of 1 in: ${shown({ ...resolved })}`,
    );
  }
  if (resolved.caseFirst !== 'off' && !resolved.caseLevel && resolved.strength <= 2) {
    throw new EmbeddedDbError(
      'BadValue',
      `'caseFirst' is invalid unless 'caseLevel' is on or 'strength' is greater than 2 in: ${shown({ ...resolved })}`,
    );
  }
}

/** What `Intl` cannot compute exactly, refused by name (NotImplemented). */
function checkExpressible(resolved: CollationSpec, backwardsByDefault: boolean): void {
  if (resolved.strength > 3) notImplemented(`strength ${resolved.strength}`);
  if (resolved.caseLevel && resolved.strength !== 1) notImplemented('caseLevel with a strength above 1');
  if (resolved.backwards !== backwardsByDefault)
    notImplemented(`backwards: ${resolved.backwards} for this locale`);
  if (resolved.alternate === 'shifted' && resolved.maxVariable === 'space') {
    notImplemented("maxVariable 'space'");
  }
}

function sensitivityOf(strength: number, caseLevel: boolean): Intl.CollatorOptions['sensitivity'] {
  if (caseLevel) return 'case';
  return STRENGTH_SENSITIVITY[strength as 1 | 2 | 3];
}

/** A collator's order of two values of any BSON type (see {@link Collation.compare}). */
function collatedOrder(compareStrings: (a: string, b: string) => number): (a: unknown, b: unknown) => number {
  const compare = (a: unknown, b: unknown): number => {
    if (a === b) return 0;
    const rank = typeRank(a);
    const other = typeRank(b);
    if (rank !== other) return rank < other ? -1 : 1;
    if (rank === RANK.string) return Math.sign(compareStrings(String(a), String(b)));
    if (rank === RANK.array) return compareArrays(a as unknown[], b as unknown[]);
    if (rank === RANK.object && isPlainObject(a) && isPlainObject(b)) return compareObjects(a, b);
    return compareValues(a, b);
  };
  const compareArrays = (a: readonly unknown[], b: readonly unknown[]): number => {
    const length = Math.min(a.length, b.length);
    for (let i = 0; i < length; i++) {
      const byValue = compare(a[i], b[i]);
      if (byValue !== 0) return byValue;
    }
    return Math.sign(a.length - b.length);
  };
  // Field by field in stored order: type, then name (binary: names are never collated), then value.
  const compareObjects = (a: Document, b: Document): number => {
    const keysA = Object.keys(a);
    const keysB = Object.keys(b);
    const length = Math.min(keysA.length, keysB.length);
    for (let i = 0; i < length; i++) {
      const [keyA, keyB] = [keysA[i] as string, keysB[i] as string];
      const byType = typeRank(a[keyA]) - typeRank(b[keyB]);
      if (byType !== 0) return Math.sign(byType);
      const byName = compareValues(keyA, keyB);
      if (byName !== 0) return byName;
      const byValue = compare(a[keyA], b[keyB]);
      if (byValue !== 0) return byValue;
    }
    return Math.sign(keysA.length - keysB.length);
  };
  return compare;
}

/** Collations parsed, by their document (an operation's collation is usually one of a few). */
const parsed = new Map<string, Collation>();
const PARSED_AT_MOST = 64;

/**
 * The collation `value` (a command's or an option's `collation`) asks for: undefined when absent
 * or `{ locale: 'simple' }` (binary comparison). Errors as MongoDB's for a malformed document
 * (codes 2, 4, 9, 14), NotImplemented (238) naming what the engine cannot compute exactly.
 */
export function parseCollation(value: unknown): Collation | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isPlainObject(value)) wrongType('collation', 'object', value);
  const spec = value as Document;
  const cacheKey = JSON.stringify(spec);
  const cached = parsed.get(cacheKey);
  if (cached) return cached;
  const { locale } = spec;
  if (locale === undefined) throw new EmbeddedDbError('NoSuchKey', 'Missing expected field "locale"');
  if (typeof locale !== 'string') return wrongType('locale', 'string', locale);
  if (locale.includes('\0')) {
    throw new EmbeddedDbError(
      'BadValue',
      `Field 'locale' cannot contain null byte. Collation spec: ${shown(spec)}`,
    );
  }
  if (locale === 'simple') {
    if (Object.keys(spec).length > 1) {
      throw new EmbeddedDbError(
        'FailedToParse',
        `If locale=simple, no other fields should be present in: ${shown(spec)}`,
      );
    }
    return undefined;
  }
  const collation = buildCollation(spec, locale);
  if (parsed.size >= PARSED_AT_MOST) parsed.clear();
  parsed.set(cacheKey, collation);
  return collation;
}

function buildCollation(spec: Document, locale: string): Collation {
  const { tag, usage } = localeOf(locale, spec);
  const fields = readFields(spec);
  const defaults = new Intl.Collator(tag, { usage }).resolvedOptions();
  const base = locale.split('@')[0] as string;
  const backwardsByDefault = BACKWARDS_LOCALES.has(base);
  const resolved: CollationSpec = {
    locale,
    caseLevel: fields.caseLevel ?? false,
    caseFirst: fields.caseFirst ?? CASE_FIRST[defaults.caseFirst ?? 'false'] ?? 'off',
    strength: fields.strength ?? 3,
    numericOrdering: fields.numericOrdering ?? false,
    alternate: fields.alternate ?? (defaults.ignorePunctuation ? 'shifted' : 'non-ignorable'),
    maxVariable: fields.maxVariable ?? 'punct',
    normalization: fields.normalization ?? false,
    backwards: fields.backwards ?? backwardsByDefault,
    version: ICU_VERSION,
  };
  if (spec.version !== undefined) {
    if (typeof spec.version !== 'string') wrongType('version', 'string', spec.version);
    if (spec.version !== ICU_VERSION) {
      throw new EmbeddedDbError(
        'IncompatibleCollationVersion',
        `Requested collation version ${spec.version} but the only available collator version was ${ICU_VERSION}. Requested collation spec: ${shown(spec)}`,
      );
    }
  }
  checkCombination(resolved);
  checkExpressible(resolved, backwardsByDefault);
  const collator = new Intl.Collator(tag, {
    usage,
    sensitivity: sensitivityOf(resolved.strength, resolved.caseLevel),
    caseFirst: resolved.caseFirst === 'off' ? 'false' : resolved.caseFirst,
    numeric: resolved.numericOrdering,
    ignorePunctuation: resolved.alternate === 'shifted',
  });
  const compareStrings = collator.compare;
  return {
    spec: resolved,
    key: JSON.stringify(resolved),
    compareStrings,
    compare: collatedOrder(compareStrings),
  };
}

/** Whether `value` holds a string anywhere (a filter without one matches alike under every collation). */
export function holdsString(value: unknown): boolean {
  if (typeof value === 'string') return true;
  if (Array.isArray(value)) return value.some(holdsString);
  if (isPlainObject(value)) {
    for (const key of Object.keys(value)) if (holdsString(value[key])) return true;
  }
  return false;
}
