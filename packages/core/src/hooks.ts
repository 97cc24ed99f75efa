import type { RequestContext } from './context';
import { isStoreError, StoreError } from './errors';
import { checkKeys, invalidOption, isPlainObject } from './option-checks';
import type { Document } from './storage/types';

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

/** The code of a hook's error that names none, by status. */
const CODE_OF_STATUS: Readonly<Record<number, string>> = {
  400: 'bad_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  409: 'conflict',
  422: 'unprocessable',
  429: 'too_many_requests',
};

const SNAKE_CASE = /^[a-z][a-z0-9_]{0,63}$/;

/**
 * Turns an error thrown by a hook or an access function into the answer it asks for: one with
 * an HTTP `status` (400-599) becomes a problem with that status, its message as `detail` and its
 * snake_case `code` (or one named after the status). Anything else stays a 500.
 */
export function asHookAnswer(error: unknown): unknown {
  if (isStoreError(error) || !(error instanceof Error)) return error;
  const { status, code } = error as Error & { status?: unknown; code?: unknown };
  if (!Number.isInteger(status) || (status as number) < 400 || (status as number) > 599) return error;
  const named = typeof code === 'string' && SNAKE_CASE.test(code) ? code : undefined;
  const detail = error.message || 'The request was refused.';
  return new StoreError(status as number, named ?? CODE_OF_STATUS[status as number] ?? 'rejected', detail, {
    cause: error,
  });
}

/** Runs application code (a hook, an access function), rendering its errors as {@link asHookAnswer} says. */
export async function runHook<T>(run: () => Awaitable<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    throw asHookAnswer(error);
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
