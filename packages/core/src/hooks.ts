import type { RequestContext } from './context';
import { checkKeys, invalidOption, isPlainObject, toHookError } from '@store/common';
import type { Document } from '@store/common';

/** The context `beforeWrite` receives: the request's, plus the body it may change. */
export interface WriteHookContext extends RequestContext {
  /**
   * The document to store (`POST`, `PUT`) or the fields to set (`PATCH`, dotted keys allowed),
   * already checked against the body rules. Change it in place or return a new one.
   */
  body: Document;
  /** The stored document a `PUT` / `PATCH` changes (`null` on create, and on a `PATCH` without `schema`). */
  readonly previous: Document | null;
}

type Awaitable<T> = T | Promise<T>;

/** Per-resource hooks, under `resources.<name>.hooks`. Throwing an error with `status` ends the request with it. */
export interface ResourceHooks {
  /** Before every read of the resource (routes, nested routes, `$populate`, `$fill`): may return a filter ANDed in. */
  beforeRead?: (ctx: RequestContext) => Awaitable<Document | undefined | void>;
  /** Before `POST`, `PUT` and `PATCH`: may change `ctx.body` or return the body to use; throws to reject. */
  beforeWrite?: (ctx: WriteHookContext) => Awaitable<Document | undefined | void>;
  /** On every document of the resource an answer carries (populated ones too): may return reshaped documents. */
  afterRead?: (ctx: RequestContext, documents: Document[]) => Awaitable<Document[] | undefined | void>;
}

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
  const hookContext: WriteHookContext = { ...ctx, body, previous };
  const result = (await runHook(() => hook(hookContext))) ?? hookContext.body;
  if (!isPlainObject(result)) {
    throw new TypeError(
      `resources.${ctx.resource.name}.hooks.beforeWrite must return a body object or nothing`,
    );
  }
  return result;
}
