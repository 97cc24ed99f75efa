import type { Document } from '@store/common';
import { checkKeys, invalidOption, isPlainObject, toHookError } from '@store/common';
import type { RequestContext } from '../model/context';
import type { Awaitable, ResourceHooks, WriteHookContext } from '../model/hooks';
import { hookContext } from './hook-context';

const HOOK_NAMES = [
  'beforeRead',
  'beforeWrite',
  'afterRead',
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
  const writeContext: WriteHookContext = { ...hookContext(ctx), body, previous };
  const result = (await runHook(() => hook(writeContext))) ?? writeContext.body;
  if (!isPlainObject(result)) {
    throw new TypeError(
      `resources.${ctx.resource.name}.hooks.beforeWrite must return a body object or nothing`,
    );
  }
  return result;
}
