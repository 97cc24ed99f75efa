/** The `cors` option: off, any origin, a list of origins, or a function of the origin (docs/rest-api.md#cors). */
import { checkBoolean, invalidOption, isPlainObject } from '@store/common';
import type { CorsConfig } from '../model/config';
import type { StoreLogger } from '../model/http';
import type { ResolvedCors } from '../model/options';

/**
 * `origins` as a function, made safe to ask on every answer: only `true` allows, and one that
 * throws allows nothing (the answer must not turn into a 500 after a write) and is logged.
 */
function askOrigins(origins: (origin: string) => boolean, logger: StoreLogger) {
  return (origin: string): boolean => {
    try {
      return origins(origin) === true;
    } catch (error) {
      logger.error(
        `[@store/core] cors.origins threw for ${JSON.stringify(origin)}: the origin is not allowed`,
        error,
      );
      return false;
    }
  };
}

const ORIGIN = /^https?:\/\/[^/\s?#]+$/;

/** Resolves the `cors` option (undefined or false: off). */
export function resolveCors(value: unknown, logger: StoreLogger): ResolvedCors | undefined {
  if (value === undefined || value === false) return undefined;
  if (value === true) return { origins: '*', credentials: false };
  if (!isPlainObject(value))
    invalidOption('cors', 'expected true, false or { origins: [...], credentials? }');
  const { origins, credentials, ...rest } = value as CorsConfig & Record<string, unknown>;
  const unknown = Object.keys(rest)[0];
  if (unknown !== undefined) invalidOption('cors', `unknown key "${unknown}" (known: origins, credentials)`);
  const withCredentials = checkBoolean(credentials ?? false, 'cors.credentials');
  if (origins === '*') return { origins: '*', credentials: withCredentials };
  if (typeof origins === 'function') {
    return { origins: askOrigins(origins, logger), credentials: withCredentials };
  }
  if (
    !Array.isArray(origins) ||
    origins.length === 0 ||
    !origins.every((o) => typeof o === 'string' && ORIGIN.test(o))
  ) {
    invalidOption(
      'cors',
      'origins must be "*", a non-empty list of origins such as "https://app.example.com", or a function (origin) => boolean',
    );
  }
  return { origins: new Set(origins), credentials: withCredentials };
}
