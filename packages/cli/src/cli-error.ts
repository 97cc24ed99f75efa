/** A failure the `store` command reports as one line on stderr, exiting with `exitCode`. */
export class CliError extends Error {
  override readonly name = 'CliError';

  constructor(
    message: string,
    /** 2: a usage error (unknown flag, missing argument); 1: anything else. */
    readonly exitCode = 1,
  ) {
    super(message);
  }
}
