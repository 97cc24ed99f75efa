import { isStoreError, StoreError } from './store-error';

/**
 * A bad option, thrown when options are resolved (at start-up, never per request): code
 * `invalid_config`, `option` the dotted path of the option at fault
 * (`resources.posts.population.comments.limit`), `problem` what is wrong with it.
 */
export class OptionError extends StoreError {
  override name = 'OptionError';
  /** The dotted path of the option at fault. */
  readonly option: string;
  /** What is wrong with it, without the option's name. */
  readonly problem: string;

  constructor(option: string, problem: string) {
    super(500, 'invalid_config', `Invalid @store option "${option}": ${problem}.`, { data: { option } });
    this.option = option;
    this.problem = problem;
  }
}

/** Whether `error` is an {@link OptionError}, also one from another copy of this package. */
export function isOptionError(error: unknown): error is OptionError {
  return (
    error instanceof OptionError ||
    (isStoreError(error) &&
      error.code === 'invalid_config' &&
      typeof (error as OptionError).option === 'string')
  );
}

/** Throws the {@link OptionError} for `option`. */
export function invalidOption(option: string, problem: string): never {
  throw new OptionError(option, problem);
}
