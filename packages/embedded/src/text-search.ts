/**
 * `$text: { $search }` for the embedded engine, over the fields of the collection's text
 * index: tokenized on anything but letters and digits, case- and diacritic-insensitive by
 * default; any term matches, every `"quoted phrase"` must appear, a `-term` or `-"phrase"`
 * excludes. In English (the default `$language`) terms and text are stemmed and stop words
 * dropped, as MongoDB's text index does; `$language: "none"` does neither.
 */
import type { Document } from '@store/common';
import { isPlainObject } from '@store/common';
// Stemmer choice: MongoDB stems with Snowball's English stemmer (Porter2). Compared: `porter2`
// (Snowball English, typed, no dependencies, maintained) and `stemmer` (the original 1980 Porter
// algorithm, which stems differently from Snowball's, e.g. "generously"); porter2 it is.
import { stem } from 'porter2';
import { EmbeddedDbError } from './errors';
import { valuesAtPath } from './paths';

/** MongoDB's English stop words (`stop_words_english.txt`), those a letters-and-digits token can be. */
const ENGLISH_STOP_WORDS: ReadonlySet<string> = new Set(
  (
    'a about above after again against all am an and any are as at be because been before being below ' +
    'between both but by cannot could did do does doing down during each few for from further had has ' +
    'have having he her here hers herself him himself his how i if in into is it its itself me more most ' +
    'my myself no nor not of off on once only or other ought our ours ourselves out over own same she ' +
    'should so some such than that the their theirs them themselves then there these they this those ' +
    'through to too under until up very was we were what when where which while who whom why with ' +
    'would you your yours yourself yourselves'
  ).split(' '),
);

/** How one language reduces a token to a term: undefined drops it (a stop word). */
type Reduce = (token: string) => string | undefined;

const english: Reduce = (token) => (ENGLISH_STOP_WORDS.has(token) ? undefined : stem(token));
const asIs: Reduce = (token) => token;

function reducer(operand: Document): Reduce {
  const language = operand.$language ?? 'english';
  if (language === 'english' || language === 'en') return english;
  if (language === 'none') return asIs;
  throw new EmbeddedDbError('BadValue', `unsupported language: ${String(language)}`);
}

const ALLOWED_KEYS = new Set(['$search', '$language', '$caseSensitive', '$diacriticSensitive']);
const TOKEN_SPLIT = /[^\p{L}\p{N}]+/u;
const SEARCH_PARTS = /(-?)"([^"]*)"|(\S+)/g;
const DIACRITICS = /\p{M}+/gu;

interface ParsedSearch {
  reduce: Reduce;
  terms: string[];
  negatedTerms: string[];
  phrases: string[];
  negatedPhrases: string[];
  normalize: (text: string) => string;
}

function normalizer(operand: Document): (text: string) => string {
  const caseSensitive = operand.$caseSensitive === true;
  const diacriticSensitive = operand.$diacriticSensitive === true;
  return (text) => {
    const cased = caseSensitive ? text : text.toLowerCase();
    return diacriticSensitive ? cased : cased.normalize('NFD').replace(DIACRITICS, '').normalize('NFC');
  };
}

const tokenize = (text: string): string[] => text.split(TOKEN_SPLIT).filter((token) => token !== '');

/** The terms of `text`: its tokens reduced (stemmed, stop words dropped) as `reduce` says. */
function termsOf(text: string, reduce: Reduce): string[] {
  const terms: string[] = [];
  for (const token of tokenize(text)) {
    // Stemming works on lower case; a case-sensitive search still compares the original case.
    const lower = token.toLowerCase();
    const reduced = reduce(lower);
    if (reduced !== undefined) terms.push(lower === token ? reduced : token.slice(0, reduced.length));
  }
  return terms;
}

function parseSearch(operand: unknown): ParsedSearch {
  if (!isPlainObject(operand) || typeof operand.$search !== 'string') {
    throw new EmbeddedDbError('BadValue', '$text needs { $search: <string> }');
  }
  const unknown = Object.keys(operand).find((key) => !ALLOWED_KEYS.has(key));
  if (unknown !== undefined) throw new EmbeddedDbError('BadValue', `unknown $text option ${unknown}`);
  const normalize = normalizer(operand);
  const reduce = reducer(operand);
  const parsed: ParsedSearch = {
    reduce,
    terms: [],
    negatedTerms: [],
    phrases: [],
    negatedPhrases: [],
    normalize,
  };
  for (const [, minus, phrase, word] of normalize(operand.$search).matchAll(SEARCH_PARTS)) {
    if (phrase !== undefined) {
      if (phrase.trim() !== '') (minus ? parsed.negatedPhrases : parsed.phrases).push(phrase);
    } else if (word?.startsWith('-')) {
      parsed.negatedTerms.push(...termsOf(word.slice(1), reduce));
    } else if (word !== undefined) {
      parsed.terms.push(...termsOf(word, reduce));
    }
  }
  return parsed;
}

function allStrings(value: unknown, out: string[]): void {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const item of value) allStrings(item, out);
  else if (isPlainObject(value)) for (const item of Object.values(value)) allStrings(item, out);
}

function indexedText(doc: Document, fields: readonly string[]): string[] {
  const out: string[] = [];
  for (const field of fields) {
    if (field === '$**') allStrings(doc, out);
    else for (const value of valuesAtPath(doc, field, true)) if (typeof value === 'string') out.push(value);
  }
  return out;
}

/** Compiles a `$text` operand into a document test over the text-indexed `fields`. */
export function textMatcher(operand: unknown, fields: readonly string[]): (doc: Document) => boolean {
  const search = parseSearch(operand);
  return (doc) => {
    const texts = indexedText(doc, fields).map(search.normalize);
    const tokens = new Set(texts.flatMap((text) => termsOf(text, search.reduce)));
    const hasPhrase = (phrase: string) => texts.some((text) => text.includes(phrase));
    if (search.negatedTerms.some((term) => tokens.has(term))) return false;
    if (search.negatedPhrases.some(hasPhrase)) return false;
    if (search.phrases.length > 0) return search.phrases.every(hasPhrase);
    return search.terms.some((term) => tokens.has(term));
  };
}
