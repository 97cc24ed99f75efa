/** Why a data directory cannot be opened: `locked` (another process, or this one, has it) or `corrupt`. */
export type DataErrorReason = 'locked' | 'corrupt';

/**
 * A data directory that cannot be opened (from `createEmbeddedDb({ dir })`): nothing was read
 * into memory and nothing on disk was changed, so the cause can be fixed and the open retried.
 */
export class EmbeddedDataError extends Error {
  override readonly name = 'EmbeddedDataError';

  constructor(
    /** Why: `locked` or `corrupt`. */
    readonly reason: DataErrorReason,
    /** The directory or file concerned. */
    readonly path: string,
    message: string,
  ) {
    super(message);
  }
}
