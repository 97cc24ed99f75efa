/**
 * `resources.<name>.collation`: how the resource's lists compare strings (MongoDB's collation
 * document). Its shape is checked here, at start-up, naming the option; the values a locale
 * accepts are the engine's to judge (MongoDB's and the embedded engine's errors name them when
 * the resource's indexes are created, also at start-up).
 */
import { type Collation, checkKeys, invalidOption, isPlainObject } from '@store/common';

/** Each field of a collation document and the values it takes (beyond its type). */
const FIELDS: Readonly<Record<keyof Collation, (value: unknown) => boolean>> = {
  locale: (value) => typeof value === 'string' && value.length > 0,
  strength: (value) => value === 1 || value === 2 || value === 3 || value === 4 || value === 5,
  caseLevel: (value) => typeof value === 'boolean',
  caseFirst: (value) => value === 'upper' || value === 'lower' || value === 'off',
  numericOrdering: (value) => typeof value === 'boolean',
  alternate: (value) => value === 'non-ignorable' || value === 'shifted',
  maxVariable: (value) => value === 'punct' || value === 'space',
  backwards: (value) => typeof value === 'boolean',
  normalization: (value) => typeof value === 'boolean',
};

const EXPECTED: Readonly<Record<keyof Collation, string>> = {
  locale: 'a locale such as "en" or "fr"',
  strength: '1 (base letters), 2 (and accents), 3 (and case), 4 or 5',
  caseLevel: 'true or false',
  caseFirst: '"upper", "lower" or "off"',
  numericOrdering: 'true or false',
  alternate: '"non-ignorable" or "shifted"',
  maxVariable: '"punct" or "space"',
  backwards: 'true or false',
  normalization: 'true or false',
};

/** A checked collation document, or undefined when the option is absent. */
export function checkCollation(value: unknown, option: string): Collation | undefined {
  if (value === undefined) return undefined;
  if (!isPlainObject(value)) {
    invalidOption(
      option,
      'expected a collation document, e.g. { locale: "en", strength: 2 } (case-insensitive)',
    );
  }
  const collation = checkKeys(value, option, Object.keys(FIELDS)) as Record<string, unknown>;
  if (collation.locale === undefined)
    invalidOption(`${option}.locale`, 'a collation needs a locale, e.g. "en"');
  for (const [field, accepts] of Object.entries(FIELDS)) {
    const given = collation[field];
    if (given !== undefined && !accepts(given)) {
      invalidOption(`${option}.${field}`, `expected ${EXPECTED[field as keyof Collation]}`);
    }
  }
  return Object.freeze({ ...collation }) as unknown as Collation;
}
