import { toHookError } from '@store/common';
import type { AuthDocument } from './db';
import type { AuthDeps } from './deps';
import type { AuthHook, AuthHookContext, AuthRequest } from './options';

const NO_FLAGS: Readonly<Record<string, unknown>> = Object.freeze(Object.create(null));

/** The one plain context object hooks receive. */
export function hookContext(
  deps: AuthDeps,
  input: { email: string; user: AuthDocument | null; token: string; request: AuthRequest | undefined },
): AuthHookContext {
  const request = input.request ?? {};
  return {
    email: input.email,
    user: input.user,
    token: input.token,
    request,
    flags: request.flags ?? NO_FLAGS,
    db: deps.db,
  };
}

/**
 * Runs the configured hooks in order. Whatever one throws becomes an `AuthError` with the
 * error's `status` (default 403); flows call this before changing anything.
 */
export async function runHooks(
  hooks: ReadonlyArray<AuthHook | null>,
  context: AuthHookContext,
): Promise<void> {
  for (const hook of hooks) {
    if (hook === null) continue;
    try {
      await hook(context);
    } catch (error) {
      throw toHookError(error);
    }
  }
}
