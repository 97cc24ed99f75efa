/**
 * The sign-in routes in the store's description (`PluginInstance.openapi`, which `@store/openapi`
 * serves): the routes of `route-table.ts`, for the strategies that are enabled.
 */
import type { PluginInstance } from '@store/core';
import type { ResolvedAuthOptions } from '../resolved-options';
import {
  AUTH_COMPONENTS,
  jsonOf,
  OTHER_ERRORS,
  problemOf,
  REDIRECT,
  RETRY_AFTER,
  SECRET_REFUSALS,
  SESSION_ANSWER,
  SESSION_SECURITY,
} from './openapi-components';

const TAGS = ['auth'];

const pathParameter = (name: string, description: string) => ({
  name,
  in: 'path',
  required: true,
  description,
  schema: { type: 'string' },
});

/** `POST` asking for a secret by mail: 202, or the address and sending refusals. */
const requestSecret = (operationId: string, summary: string, body: string) => ({
  tags: TAGS,
  operationId,
  summary,
  description: 'Answers the same whether or not a user has the address.',
  requestBody: { required: true, content: jsonOf(body) },
  responses: {
    202: { description: 'Sent (or, past the quota, not sent again).', content: jsonOf('Sent') },
    400: problemOf('`invalid_email` or `invalid_body`.'),
    429: problemOf('`too_many_requests`.', RETRY_AFTER),
    default: OTHER_ERRORS,
  },
});

/** `HEAD` on a link a mail carries: mail scanners send these, and they never sign anyone in. */
const headLink = (operationId: string) => ({
  tags: TAGS,
  operationId,
  summary: 'Check a link without using it',
  responses: { 204: { description: 'Nothing read, nothing changed.' } },
});

const REQUEST_CODE = requestSecret('auth.requestCode', 'Mail a sign-in code', 'CodeRequest');

/** The 403 of a sign-out a form of another site could have sent. */
const CROSS_SITE_SIGN_OUT = problemOf(
  '`custom_header_required`: sent without `Content-Type: application/json`, an `X-Requested-With` / `X-Store-*` header or a bearer token, as a form of another site could have sent it.',
);

const MAGIC_CODE = {
  '/magic-code': {
    post: {
      ...REQUEST_CODE,
      responses: {
        ...REQUEST_CODE.responses,
        202: {
          ...REQUEST_CODE.responses[202],
          headers: { 'Set-Cookie': { $ref: '#/components/headers/auth.SetBrowserCookie' } },
        },
      },
    },
  },
  '/magic-code/verify': {
    post: {
      tags: TAGS,
      operationId: 'auth.verifyCode',
      summary: 'Sign in with a mailed code',
      requestBody: { required: true, content: jsonOf('CodeVerification') },
      responses: { 200: SESSION_ANSWER, 401: problemOf('`invalid_code`.'), ...SECRET_REFUSALS },
    },
  },
  '/magic-code/{email}/{code}': {
    parameters: [
      pathParameter('email', 'The address the code was sent to.'),
      pathParameter('code', 'The code.'),
    ],
    get: {
      tags: TAGS,
      operationId: 'auth.openCodeLink',
      summary: 'Sign in with the code link of a mail',
      description:
        'Signs in the browser that asked for the code (its `store_code_browser` cookie) and API clients (no `Accept: text/html` first, no `Sec-Fetch-Site` other than `same-origin`). Any other browser changes nothing: the confirmation page naming the account (or, asked for JSON, `{ status: "confirm", email }`), whose button POSTs to this URL.',
      responses: {
        200: {
          ...SESSION_ANSWER,
          description: 'Signed in, or the confirmation the browser must give first.',
          content: {
            'application/json': {
              schema: {
                oneOf: [
                  { $ref: '#/components/schemas/auth.Session' },
                  { $ref: '#/components/schemas/auth.Status' },
                ],
              },
            },
            'text/html': { schema: { type: 'string' } },
          },
        },
        302: REDIRECT('To `magicCode.redirectSuccess` (cookie set), or to the page named for a refusal.'),
        401: problemOf('`invalid_code`.'),
        ...SECRET_REFUSALS,
      },
    },
    post: {
      tags: TAGS,
      operationId: 'auth.confirmCodeLink',
      summary: "Sign in with a code link (its confirmation page's button)",
      description:
        'Takes only the form post of the confirmation page, in the browser that was shown it. API clients use `POST /auth/magic-code/verify`.',
      requestBody: {
        required: true,
        content: {
          'application/x-www-form-urlencoded': {
            schema: { $ref: '#/components/schemas/auth.CodeConfirmation' },
          },
        },
      },
      responses: {
        200: SESSION_ANSWER,
        303: REDIRECT('To `magicCode.redirectSuccess` (cookie set), or to the page named for a refusal.'),
        401: problemOf('`invalid_code`.'),
        403: problemOf('`confirmation_required`: not the confirmation page of this browser.'),
        415: problemOf('`unsupported_media_type`.'),
        ...SECRET_REFUSALS,
      },
    },
    head: headLink('auth.headCodeLink'),
  },
};

const LINK_TOKEN = pathParameter('token', 'The token of the mailed link.');

const MAGIC_LINK = {
  '/magic-link': { post: requestSecret('auth.requestLink', 'Mail a sign-in link', 'LinkRequest') },
  '/magic-link/{token}': {
    parameters: [LINK_TOKEN],
    get: {
      tags: TAGS,
      operationId: 'auth.openLink',
      summary: 'Open a mailed link',
      description:
        'A plain link signs this browser in. A poll link changes nothing: it answers the confirmation page (or, asked for JSON, `{ status: "confirm", requestedAt, ip, userAgent }`).',
      responses: {
        200: {
          ...SESSION_ANSWER,
          description: 'Signed in (a plain link), or what a poll link asks to approve.',
          content: { ...SESSION_ANSWER.content, 'text/html': { schema: { type: 'string' } } },
        },
        302: REDIRECT('To `redirectSuccess`, `pollApproval`, or the page named for a refusal.'),
        ...SECRET_REFUSALS,
      },
    },
    post: {
      tags: TAGS,
      operationId: 'auth.approveLink',
      summary: "Approve a poll link (the confirmation page's button)",
      description:
        'Takes an empty body, a form post or JSON. A plain link signs this browser in, as `GET` does.',
      responses: {
        200: { description: 'Approved: the device that asked gets its session.', content: jsonOf('Status') },
        303: REDIRECT('To `redirectSuccess`, or the page named for a refusal.'),
        415: problemOf('`unsupported_media_type`.'),
        ...SECRET_REFUSALS,
      },
    },
    head: headLink('auth.headLink'),
  },
  '/magic-token/{pollToken}': {
    parameters: [pathParameter('pollToken', 'The `pollToken` of the request for a poll link.')],
    get: {
      tags: TAGS,
      operationId: 'auth.pollToken',
      summary: 'Wait for a poll link to be approved',
      responses: {
        200: { ...SESSION_ANSWER, description: 'Approved: signed in, once.' },
        202: { description: 'Not approved yet.', headers: RETRY_AFTER, content: jsonOf('Status') },
        ...SECRET_REFUSALS,
      },
    },
  },
};

const SESSION = {
  tags: TAGS,
  operationId: 'auth.session',
  summary: 'Who is signed in',
  security: SESSION_SECURITY,
  responses: {
    200: { description: 'The session.', content: jsonOf('SessionInfo') },
    401: problemOf('`unauthorized`: no live session.'),
    default: OTHER_ERRORS,
  },
};

const ALWAYS = {
  '/session': { get: SESSION },
  '/logout': {
    post: {
      tags: TAGS,
      operationId: 'auth.logout',
      summary: 'End the session',
      security: [{}, ...SESSION_SECURITY],
      responses: {
        204: { description: 'Revoked (if there was one), cookie cleared; its event streams end.' },
        403: CROSS_SITE_SIGN_OUT,
        default: OTHER_ERRORS,
      },
    },
  },
  '/logout-everywhere': {
    post: {
      tags: TAGS,
      operationId: 'auth.logoutEverywhere',
      summary: "End every session of the request's user",
      description:
        'Revokes every session of the signed-in user, on every device, and ends their event streams (`dropped`, `unauthorized`).',
      security: SESSION_SECURITY,
      responses: {
        204: { description: 'Every session revoked, cookie cleared.' },
        401: problemOf('`unauthorized`: no live session.'),
        403: CROSS_SITE_SIGN_OUT,
        default: OTHER_ERRORS,
      },
    },
  },
};

/** The description of the routes `options` enable, under `prefix` (`/auth`). */
export function describeAuthRoutes(
  options: ResolvedAuthOptions,
  prefix: string,
): NonNullable<PluginInstance['openapi']> {
  const routes = {
    ...(options.magicCode === null ? {} : MAGIC_CODE),
    ...(options.magicLink === null ? {} : MAGIC_LINK),
    ...ALWAYS,
  };
  const paths = Object.fromEntries(Object.entries(routes).map(([path, item]) => [`${prefix}${path}`, item]));
  return { paths, components: AUTH_COMPONENTS };
}
