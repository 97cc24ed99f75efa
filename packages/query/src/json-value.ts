import { LIMITS } from './limits';
import { fail } from './query-error';

/** Parses the JSON value of a parameter (`$regex`, geo forms), bounded in length. */
export function parseJsonValue(value: string, parameter: string): unknown {
  if (value.length > LIMITS.jsonValueLength) {
    fail('invalid_query', parameter, `${parameter}: value longer than ${LIMITS.jsonValueLength} characters`);
  }
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return fail('invalid_query', parameter, `${parameter}: value is not valid JSON`);
  }
}
