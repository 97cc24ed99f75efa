/**
 * Patterns that are plain text: what the store's `contains`, `startsWith` and `endsWith` send
 * (an escaped literal, anchored with `^` or `$` or not, case-insensitive), and any `$regex`
 * written that way. They are answered with `includes` / `startsWith` / `endsWith`, V8's own
 * string search, instead of running RE2: the answer is RE2's exactly, because the text search is
 * taken only where it cannot differ.
 *
 * - Case-sensitive: any literal without lone surrogates (RE2 matches code points; a literal made
 *   of whole code points is found where its UTF-16 units are).
 * - Case-insensitive (`i`): an ASCII literal over an ASCII text, both lower-cased: RE2 folds an
 *   ASCII letter into its other case and into nothing else in ASCII. A text holding any other
 *   character goes to RE2, which also folds the Kelvin sign to k, the long s to s, and the like.
 *
 * Any other flag (`m` changes what `^` and `$` mean, `s` only matters to `.`) goes to RE2.
 */

/** A text search standing in for a pattern, or undefined where only RE2 answers exactly. */
export type LiteralTest = (text: string) => boolean | undefined;

/** The characters a pattern must escape to mean themselves. */
const META = new Set(['\\', '.', '^', '$', '|', '?', '*', '+', '(', ')', '[', ']', '{', '}']);
/** Any UTF-16 unit past ASCII (surrogates included). */
const NON_ASCII = /[\u0080-\uffff]/;
const LONE_SURROGATE = /[\ud800-\udfff]/;

/** The text `body` (a pattern without its anchors) stands for, or undefined when it is a real pattern. */
function literalText(body: string): string | undefined {
  let text = '';
  for (let i = 0; i < body.length; i += 1) {
    const char = body[i] as string;
    if (char === '\\') {
      const next = body[i + 1];
      // `\.` is a dot; `\d`, `\b`, `\1`... are classes, anchors and references.
      if (next === undefined || /[0-9A-Za-z]/.test(next)) return undefined;
      text += next;
      i += 1;
    } else if (META.has(char)) {
      return undefined;
    } else {
      text += char;
    }
  }
  return text;
}

/** The text search that answers as the pattern `source` with `flags` does, or undefined. */
export function literalTest(source: string, flags: string): LiteralTest | undefined {
  if (flags !== '' && flags !== 'i') return undefined;
  const start = source.startsWith('^');
  // A `$` ends the pattern only when it is not escaped (`\$` is a dollar sign).
  const end = source.endsWith('$') && !source.endsWith('\\$') && source.length > (start ? 1 : 0);
  const text = literalText(source.slice(start ? 1 : 0, end ? -1 : undefined));
  if (text === undefined || LONE_SURROGATE.test(text)) return undefined;
  const found =
    start && end
      ? (t: string) => t === text
      : start
        ? (t: string) => t.startsWith(text)
        : end
          ? (t: string) => t.endsWith(text)
          : (t: string) => t.includes(text);
  if (flags === '') return found;
  if (NON_ASCII.test(text)) return undefined;
  const lower = text.toLowerCase();
  const foundLower =
    start && end
      ? (t: string) => t === lower
      : start
        ? (t: string) => t.startsWith(lower)
        : end
          ? (t: string) => t.endsWith(lower)
          : (t: string) => t.includes(lower);
  return (candidate) => (NON_ASCII.test(candidate) ? undefined : foundLower(candidate.toLowerCase()));
}
