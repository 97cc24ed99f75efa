import { isQueryError, type QueryError } from './query-error';

/** The QueryError `run` throws; fails the test when it throws nothing or something else. */
export function errorOf(run: () => unknown): QueryError {
  try {
    run();
  } catch (error) {
    if (isQueryError(error)) return error;
    throw error;
  }
  throw new Error('expected a QueryError');
}
