import { invalidOption } from './option-error';

/** Whether `value` is a plain object (not an array, a class instance or null). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/** Checks `value` is a plain object whose keys all appear in `known`. */
export function checkKeys(value: unknown, option: string, known: readonly string[]): Record<string, unknown> {
  if (!isPlainObject(value)) invalidOption(option || 'config', 'expected a plain object');
  for (const key of Object.keys(value)) {
    if (!known.includes(key)) {
      invalidOption(option ? `${option}.${key}` : key, `unknown option (known: ${known.join(', ')})`);
    }
  }
  return value;
}

/** Checks a boolean option. */
export function checkBoolean(value: unknown, option: string): boolean {
  if (typeof value !== 'boolean') invalidOption(option, 'expected true or false');
  return value;
}

/** Checks an integer option of at least `min`. */
export function checkInteger(value: unknown, option: string, min: number): number {
  if (!Number.isSafeInteger(value) || (value as number) < min) {
    invalidOption(option, `expected an integer >= ${min}`);
  }
  return value as number;
}

const FIELD_SEGMENT = /^[^$.\0][^.\0]*$/;

/** Checks a dotted field path: non-empty segments, none starting with `$`, at most 200 characters. */
export function checkFieldPath(value: unknown, option: string): string {
  if (
    typeof value !== 'string' ||
    value.length > 200 ||
    !value.split('.').every((s) => FIELD_SEGMENT.test(s))
  ) {
    invalidOption(option, 'expected a field path such as "title" or "author.name"');
  }
  return value;
}

/** Checks a MongoDB collection name. */
export function checkCollectionName(value: unknown, option: string): string {
  if (
    typeof value !== 'string' ||
    value.length === 0 ||
    value.length > 120 ||
    /[$\0]/.test(value) ||
    value.startsWith('system.')
  ) {
    invalidOption(option, 'expected a collection name (1-120 characters, no "$", not "system.*")');
  }
  return value;
}

/** Checks `baseUrl`: an absolute http(s) URL or a path starting with `/`; drops trailing slashes. */
export function checkBaseUrl(value: unknown, option: string): string | undefined {
  if (value === undefined) return undefined;
  const ok =
    typeof value === 'string' && (value === '' || value.startsWith('/') || /^https?:\/\/[^/]/i.test(value));
  if (!ok || (value !== '' && !URL.canParse(value, 'http://localhost'))) {
    invalidOption(option, 'expected an absolute http(s) URL or a path starting with "/"');
  }
  return value.replace(/\/+$/, '');
}
