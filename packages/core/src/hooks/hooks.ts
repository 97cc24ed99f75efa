import type { Document } from '@store/common';
import { checkKeys, invalidOption, isPlainObject, toHookError } from '@store/common';
import type { RequestContext } from '../model/context';
import type { Awaitable, HookContext, ResourceHooks, WriteHookContext } from '../model/hooks';
import { withoutRevision } from '../model/revision';
import { hookContext } from './hook-context';

const HOOK_NAMES = [
  'beforeRead',
  'beforeWrite',
  'afterRead',
  'afterWrite',
  'beforeDelete',
  'afterDelete',
] as const satisfies readonly (keyof ResourceHooks)[];

/** Checks `resources.<name>.hooks`: an object of functions with known names. */
export function checkHooks(value: unknown, option: string): ResourceHooks {
  const hooks = checkKeys(value, option, HOOK_NAMES);
  for (const [name, hook] of Object.entries(hooks)) {
    if (hook !== undefined && typeof hook !== 'function')
      invalidOption(`${option}.${name}`, 'expected a function');
  }
  return hooks as ResourceHooks;
}

/**
 * Runs application code (a hook, an access function), turning what it throws into the answer
 * `@store/common`'s `toHookError` (the one policy of every package) says.
 */
export async function runHook<T>(run: () => Awaitable<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw toHookError(error);
  }
}

/**
 * Runs `hooks.beforeWrite` of `ctx.resource` on a body: the body it returns, or the one it left
 * in `ctx.body`. Without the hook, `body` itself.
 */
export async function applyBeforeWrite(
  ctx: RequestContext,
  body: Document,
  previous: Document | null,
): Promise<Document> {
  const hook = ctx.resource.hooks.beforeWrite;
  if (hook === undefined) return body;
  const writeContext: WriteHookContext = {
    ...hookContext(ctx),
    body,
    previous: previous === null ? null : withoutRevision(previous),
  };
  const result = (await runHook(() => hook(writeContext))) ?? writeContext.body;
  if (!isPlainObject(result)) {
    throw new TypeError(
      `resources.${ctx.resource.name}.hooks.beforeWrite must return a body object or nothing`,
    );
  }
  return result;
}

/**
 * Runs an after-hook (`afterWrite`, `afterDelete`) of a change already stored: what it throws is
 * logged, never answered, so the client does not retry a committed write.
 */
export async function runAfterHook(
  ctx: RequestContext,
  name: 'afterWrite' | 'afterDelete',
  run: (hookCtx: HookContext) => Awaitable<unknown>,
): Promise<void> {
  try {
    await run(hookContext(ctx));
  } catch (error) {
    ctx.options.logger.error(
      `[@store/core] resources.${ctx.resource.name}.hooks.${name} failed after the ${ctx.operation} was stored`,
      error,
    );
  }
}

/** Runs `hooks.afterWrite` of `ctx.resource`, if any, on a stored change. */
export async function afterWritten(
  ctx: RequestContext,
  before: Document | null,
  after: Document,
): Promise<void> {
  const hook = ctx.resource.hooks.afterWrite;
  if (hook !== undefined)
    await runAfterHook(ctx, 'afterWrite', (hookCtx) =>
      hook(hookCtx, {
        before: before === null ? null : withoutRevision(before),
        after: withoutRevision(after),
      }),
    );
}
