import { invalidOption } from '@store/common';

/**
 * How the fetch handler sits in its host. `Context` is what the host passes beside the
 * request (Deno's `info`, Bun's `server`, a Hono context), handed to `getClientIp`.
 */
export interface FetchStoreOptions<Context = unknown> {
  /**
   * A path prefix the store lives under (`'/api'`): stripped before routing and used for
   * `Location` when `baseUrl` is not set. Requests outside it are unmatched.
   * @default ''
   */
  basePath?: string;
  /**
   * What unmatched requests get: `false` answers a 404 `application/problem+json` (code
   * `not_found`); `true` resolves `null`, so the host can try its next handler.
   * @default false
   */
  fallthrough?: boolean;
  /**
   * The client address, for the send limits of passwordless login and for logs. A `Request`
   * has no socket: read it from the context the host passes as the handler's second argument
   * (`info.remoteAddr` in Deno, `server.requestIP(req)` in Bun, `getConnInfo(c)` in Hono), or
   * from a proxy header you trust. Without it, the per-IP send limit does not apply.
   * @default () => undefined
   */
  getClientIp?: (request: Request, context: Context | undefined) => string | undefined;
}

/** {@link FetchStoreOptions} with defaults applied. */
export type ResolvedFetchStoreOptions<Context = unknown> = Readonly<Required<FetchStoreOptions<Context>>>;

const BASE_PATH = /^(?:\/[^/?#]+)*$/;

function invalid(option: string, expected: string): never {
  invalidOption(option, expected);
}

/**
 * Applies the defaults of {@link FetchStoreOptions} and checks them, throwing an `OptionError`
 * (code `invalid_config`) that names the option.
 */
export function resolveFetchStoreOptions<Context = unknown>(
  options: FetchStoreOptions<Context> = {},
): ResolvedFetchStoreOptions<Context> {
  const basePath = options.basePath ?? '';
  if (typeof basePath !== 'string' || !BASE_PATH.test(basePath)) {
    invalid('basePath', 'expected "" or a path such as "/api", without a trailing slash');
  }
  const fallthrough = options.fallthrough ?? false;
  if (typeof fallthrough !== 'boolean') invalid('fallthrough', 'expected a boolean');
  const getClientIp = options.getClientIp ?? (() => undefined);
  if (typeof getClientIp !== 'function') invalid('getClientIp', 'expected a function of the Request');
  return { basePath, fallthrough, getClientIp };
}
