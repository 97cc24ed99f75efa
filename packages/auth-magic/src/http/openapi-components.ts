/**
 * The OpenAPI components of the sign-in routes: their bodies and answers, the session cookie
 * scheme, and helpers the path descriptions (`openapi.ts`) share. `Problem` and the `Problem`
 * response are the store's own (`@store/core` describes them).
 */
import { CODE_BROWSER_COOKIE } from '../code-browser';
import { SESSION_COOKIE } from '../sessions';

type Json = Record<string, unknown>;

const schema = (name: string) => ({ $ref: `#/components/schemas/auth.${name}` });
const email = { type: 'string', format: 'email', maxLength: 320 };
const date = { type: 'string', format: 'date-time' };

export const AUTH_COMPONENTS = {
  schemas: {
    'auth.CodeRequest': { type: 'object', required: ['email'], properties: { email } },
    'auth.LinkRequest': {
      type: 'object',
      required: ['email'],
      properties: {
        email,
        poll: {
          type: 'boolean',
          description: '`true`: sign in this device once the link is approved on another.',
        },
      },
    },
    'auth.CodeConfirmation': {
      type: 'object',
      required: ['confirm'],
      properties: {
        confirm: { type: 'string', description: 'The proof the confirmation page of the link embeds.' },
      },
    },
    'auth.CodeVerification': {
      type: 'object',
      required: ['email', 'code'],
      properties: { email, code: { type: 'string' } },
    },
    'auth.Sent': {
      type: 'object',
      required: ['sent', 'expiresAt'],
      properties: {
        sent: {
          type: 'boolean',
          description: "`false` past the address's quota: the live secret already sent stays valid.",
        },
        expiresAt: date,
        pollToken: {
          type: 'string',
          description: 'With `poll`: poll `GET /auth/magic-token/{pollToken}` with it.',
        },
      },
    },
    'auth.Session': {
      type: 'object',
      required: ['token', 'user', 'expiresAt'],
      properties: {
        token: {
          type: 'string',
          description: 'Send it as `Authorization: Bearer <token>` (the cookie is set too).',
        },
        user: { type: 'object', description: 'The signed-in user document.' },
        expiresAt: date,
      },
    },
    'auth.SessionInfo': {
      type: 'object',
      required: ['user', 'expiresAt'],
      properties: { user: { type: 'object' }, expiresAt: date },
    },
    'auth.Status': {
      type: 'object',
      required: ['status'],
      properties: {
        status: { type: 'string', enum: ['pending', 'approved', 'confirm'] },
        email: { ...email, description: 'The account a code link signs in to, once confirmed.' },
        requestedAt: date,
        ip: { type: ['string', 'null'] },
        userAgent: { type: ['string', 'null'] },
      },
    },
  },
  headers: {
    'auth.SetCookie': {
      description: `The \`${SESSION_COOKIE}\` session cookie (HttpOnly, SameSite=Lax; Secure over https).`,
      schema: { type: 'string' },
    },
    'auth.RetryAfter': { description: 'Seconds to wait.', schema: { type: 'integer', minimum: 0 } },
    'auth.SetBrowserCookie': {
      description: `The \`${CODE_BROWSER_COOKIE}\` cookie marking the browser that asked (HttpOnly, SameSite=Lax, under the code routes, for a code's lifetime; Secure over https): the code's link signs this browser in without a confirmation.`,
      schema: { type: 'string' },
    },
  },
  securitySchemes: {
    sessionCookie: {
      type: 'apiKey',
      in: 'cookie',
      name: SESSION_COOKIE,
      description: 'The session cookie the sign-in routes set.',
    },
  },
} satisfies Record<string, Json>;

/** A JSON body of the schema `auth.<name>`. */
export const jsonOf = (name: string) => ({ 'application/json': { schema: schema(name) } });

const problem = { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } };

/** An error answer: `when` says which codes. */
export const problemOf = (when: string, headers?: Json) => ({
  description: when,
  content: problem,
  ...(headers === undefined ? {} : { headers }),
});

/** Any other error, as the store describes it. */
export const OTHER_ERRORS = { $ref: '#/components/responses/Problem' };

/** The answer handing out a session (the cookie set too). */
export const SESSION_ANSWER = {
  description: 'Signed in: the session token, the user and when the session ends.',
  headers: { 'Set-Cookie': { $ref: '#/components/headers/auth.SetCookie' } },
  content: jsonOf('Session'),
};

/** A redirect to a page the options name. */
export const REDIRECT = (when: string) => ({
  description: when,
  headers: { Location: { schema: { type: 'string' } } },
});

export const RETRY_AFTER = { 'Retry-After': { $ref: '#/components/headers/auth.RetryAfter' } };

/** The refusals of using a secret (a code or a link). */
export const SECRET_REFUSALS = {
  404: problemOf('`token_not_found` or `user_not_found`.'),
  409: problemOf('`already_used`, or `approval_required`.'),
  410: problemOf('`token_expired`.'),
  default: OTHER_ERRORS,
};

/** Where the session may be: a bearer token (the store's scheme) or the cookie. */
export const SESSION_SECURITY = [{ sessionToken: [] }, { sessionCookie: [] }];
