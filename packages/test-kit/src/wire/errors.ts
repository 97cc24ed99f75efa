/**
 * Command errors of the wire front, answered as MongoDB answers them:
 * `{ ok: 0, errmsg, code, codeName }`. Errors of the embedded engine carry MongoDB's code and
 * code name already (and `keyPattern` / `keyValue` for a duplicate key).
 */
import type { Document } from '@store/common';

/** MongoDB's names for the codes the front answers (its own and a fail point's). */
const CODE_NAMES: Readonly<Record<number, string>> = {
  1: 'InternalError',
  2: 'BadValue',
  6: 'HostUnreachable',
  7: 'HostNotFound',
  9: 'FailedToParse',
  11: 'UserNotFound',
  13: 'Unauthorized',
  14: 'TypeMismatch',
  26: 'NamespaceNotFound',
  27: 'IndexNotFound',
  43: 'CursorNotFound',
  48: 'NamespaceExists',
  50: 'MaxTimeMSExpired',
  59: 'CommandNotFound',
  72: 'InvalidOptions',
  85: 'IndexOptionsConflict',
  86: 'IndexKeySpecsConflict',
  89: 'NetworkTimeout',
  91: 'ShutdownInProgress',
  112: 'WriteConflict',
  189: 'PrimarySteppedDown',
  238: 'NotImplemented',
  262: 'ExceededTimeLimit',
  322: 'APIVersionError',
  9001: 'SocketException',
  10107: 'NotWritablePrimary',
  11000: 'DuplicateKey',
  11600: 'InterruptedAtShutdown',
  11602: 'InterruptedDueToReplStateChange',
  13435: 'NotPrimaryNoSecondaryOk',
  13436: 'NotPrimaryOrSecondary',
  40324: 'Location40324',
  40415: 'Location40415',
};

export const codeNameOf = (code: number): string => CODE_NAMES[code] ?? `Location${code}`;

/** A command the front refuses: `code` is MongoDB's. */
export class CommandError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly extra: Document = {},
  ) {
    super(message);
  }
}

/** Narrowing for errors that carry a MongoDB code (the embedded engine's, the front's). */
function codeOf(error: unknown): number | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'number' ? code : undefined;
}

/** The fields of an error a write reports: code, name, message and a duplicate key's details. */
export function errorFields(error: unknown): Document {
  const code = codeOf(error) ?? 1;
  const ownName = (error as { codeName?: unknown } | null)?.codeName;
  const fields: Document = {
    code,
    codeName: typeof ownName === 'string' && codeOf(error) !== undefined ? ownName : codeNameOf(code),
    errmsg: error instanceof Error ? error.message : String(error),
  };
  const { keyPattern, keyValue } = (error ?? {}) as { keyPattern?: unknown; keyValue?: unknown };
  if (keyPattern !== undefined) fields.keyPattern = keyPattern;
  if (keyValue !== undefined) fields.keyValue = keyValue;
  if (error instanceof CommandError) Object.assign(fields, error.extra);
  return fields;
}

/** The reply to a command that failed with `error`. */
export const errorReply = (error: unknown): Document => ({ ok: 0, ...errorFields(error) });
