/**
 * `$text: { $search }` for the embedded engine, over the fields of the collection's text
 * index: tokenized on anything but letters and digits, case- and diacritic-insensitive by
 * default; any term matches, every `"quoted phrase"` must appear, a `-term` or `-"phrase"`
 * excludes. Unlike MongoDB there is no stemming and no stop-word list.
 */
import type { Document } from '@store/common';
import { isPlainObject } from '@store/common';
import { EmbeddedDbError } from './errors';
import { valuesAtPath } from './paths';

const ALLOWED_KEYS = new Set(['$search', '$language', '$caseSensitive', '$diacriticSensitive']);
const TOKEN_SPLIT = /[^\p{L}\p{N}]+/u;
const SEARCH_PARTS = /(-?)"([^"]*)"|(\S+)/g;
const DIACRITICS = /\p{M}+/gu;

interface ParsedSearch {
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

function parseSearch(operand: unknown): ParsedSearch {
  if (!isPlainObject(operand) || typeof operand.$search !== 'string') {
    throw new EmbeddedDbError('BadValue', '$text needs { $search: <string> }');
  }
  const unknown = Object.keys(operand).find((key) => !ALLOWED_KEYS.has(key));
  if (unknown !== undefined) throw new EmbeddedDbError('BadValue', `unknown $text option ${unknown}`);
  const normalize = normalizer(operand);
  const parsed: ParsedSearch = { terms: [], negatedTerms: [], phrases: [], negatedPhrases: [], normalize };
  for (const [, minus, phrase, word] of normalize(operand.$search).matchAll(SEARCH_PARTS)) {
    if (phrase !== undefined) {
      if (phrase.trim() !== '') (minus ? parsed.negatedPhrases : parsed.phrases).push(phrase);
    } else if (word?.startsWith('-')) {
      parsed.negatedTerms.push(...tokenize(word.slice(1)));
    } else if (word !== undefined) {
      parsed.terms.push(...tokenize(word));
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
    const tokens = new Set(texts.flatMap(tokenize));
    const hasPhrase = (phrase: string) => texts.some((text) => text.includes(phrase));
    if (search.negatedTerms.some((term) => tokens.has(term))) return false;
    if (search.negatedPhrases.some(hasPhrase)) return false;
    if (search.phrases.length > 0) return search.phrases.every(hasPhrase);
    return search.terms.some((term) => tokens.has(term));
  };
}
