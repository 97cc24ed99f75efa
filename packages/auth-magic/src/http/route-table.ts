import { AuthError } from '../errors';
import type { ResolvedAuthOptions } from '../resolved-options';
import type { AuthRoute } from './context';
import { approveLinkRoute } from './routes/approve-link';
import { confirmCodeLinkRoute } from './routes/confirm-code-link';
import { headLinkRoute } from './routes/head-link';
import { logoutRoute } from './routes/logout';
import { logoutEverywhereRoute } from './routes/logout-everywhere';
import { openCodeLinkRoute } from './routes/open-code-link';
import { openLinkRoute } from './routes/open-link';
import { pollTokenRoute } from './routes/poll-token';
import { requestCodeRoute } from './routes/request-code';
import { requestLinkRoute } from './routes/request-link';
import { sessionRoute } from './routes/session';
import { verifyCodeRoute } from './routes/verify-code';

/** One path under `/auth/`: its segments (`:name` captures one), the strategy it needs, its methods. */
interface AuthPath {
  readonly path: readonly string[];
  readonly strategy: 'magicLink' | 'magicCode' | null;
  readonly methods: Readonly<Record<string, AuthRoute>>;
}

/** Which route answers which method on each auth path (docs/auth.md#routes). */
const AUTH_ROUTES: readonly AuthPath[] = [
  { path: ['magic-code'], strategy: 'magicCode', methods: { POST: requestCodeRoute } },
  { path: ['magic-code', 'verify'], strategy: 'magicCode', methods: { POST: verifyCodeRoute } },
  {
    path: ['magic-code', ':email', ':token'],
    strategy: 'magicCode',
    methods: { GET: openCodeLinkRoute, HEAD: headLinkRoute, POST: confirmCodeLinkRoute },
  },
  { path: ['magic-link'], strategy: 'magicLink', methods: { POST: requestLinkRoute } },
  {
    path: ['magic-link', ':token'],
    strategy: 'magicLink',
    methods: { GET: openLinkRoute, HEAD: headLinkRoute, POST: approveLinkRoute },
  },
  { path: ['magic-token', ':token'], strategy: 'magicLink', methods: { GET: pollTokenRoute } },
  { path: ['session'], strategy: null, methods: { GET: sessionRoute, HEAD: sessionRoute } },
  { path: ['logout'], strategy: null, methods: { POST: logoutRoute } },
  { path: ['logout-everywhere'], strategy: null, methods: { POST: logoutEverywhereRoute } },
];

/** A request path that names an auth route. */
export interface AuthMatch {
  readonly route: AuthPath;
  readonly params: Readonly<Record<string, string>>;
}

/** The segments below `/auth/`, percent-decoded; `undefined` when the path is not under `/auth`. */
function authSegments(path: string): string[] | undefined {
  const segments = path.replace(/^\//, '').replace(/\/$/, '').split('/');
  if (segments[0] !== 'auth' || segments.length > 4) return undefined;
  try {
    return segments.slice(1).map(decodeURIComponent);
  } catch {
    return undefined;
  }
}

function capture(
  pattern: readonly string[],
  segments: readonly string[],
): Record<string, string> | undefined {
  if (pattern.length !== segments.length) return undefined;
  const params: Record<string, string> = Object.create(null);
  for (const [i, part] of pattern.entries()) {
    const segment = segments[i] as string;
    if (part.startsWith(':') && segment !== '') params[part.slice(1)] = segment;
    else if (part !== segment) return undefined;
  }
  return params;
}

/**
 * The auth route a path names (`/auth/magic-link/<token>`), or `undefined`: then the path is not
 * the store's. Routes of a strategy that is not enabled are not mounted.
 */
export function matchAuthRoute(path: string, options: ResolvedAuthOptions): AuthMatch | undefined {
  const segments = authSegments(path);
  if (segments === undefined) return undefined;
  for (const route of AUTH_ROUTES) {
    if (route.strategy !== null && options[route.strategy] === null) continue;
    const params = capture(route.path, segments);
    if (params !== undefined) return { route, params };
  }
  return undefined;
}

/** The route for a method on a matched path; 405 `method_not_allowed` with `Allow` otherwise. */
export function authRouteFor(match: AuthMatch, method: string): AuthRoute {
  const { methods } = match.route;
  const upper = method.toUpperCase();
  const route = Object.hasOwn(methods, upper) ? methods[upper] : undefined;
  if (route !== undefined) return route;
  const allow = Object.keys(methods).join(', ');
  return () => {
    throw new AuthError('method_not_allowed', `${upper} is not allowed here; allowed: ${allow}.`, {
      headers: { allow },
    });
  };
}
