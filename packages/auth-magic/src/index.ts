export { confirmPage, type PageResponse } from './confirm-page';
export type { AuthCollection, AuthDb, AuthDocument } from './db';
export { type AuthDeps, createAuthDeps, ensureAuthIndexes } from './deps';
export type { DurationInput } from './duration';
export { AUTH_ERROR_CODES, type AuthErrorCode } from './error-codes';
export { AuthError } from './errors';
export { type ApproveLinkResult, approveLink } from './flows/approve-link';
export { consumeLink } from './flows/consume-link';
export { inspectLink, type LinkInspection } from './flows/inspect-link';
export { type CodeLinkResult, type OpenCodeLinkInput, openCodeLink } from './flows/open-code-link';
export { type PollLinkResult, pollLinkStatus } from './flows/poll-link-status';
export { type RequestCodeInput, requestCode, type SentResult } from './flows/request-code';
export { type RequestLinkInput, type RequestLinkResult, requestLink } from './flows/request-link';
export { getSession, logout, logoutEverywhere } from './flows/session-flows';
export { type VerifyCodeInput, verifyCode } from './flows/verify-code';
export type { UserAuthConfig } from './http/options';
export { type MagicAuthInstance, magicAuth } from './http/plugin';
export type { MagicEmailOptions, MailerOption, MailMessage, MailPart, MailTransport } from './mail-types';
export type {
  AuthHook,
  AuthHookContext,
  AuthLogger,
  AuthOptions,
  AuthRequest,
  MagicCodeOptions,
  MagicLinkOptions,
  MagicStrategyOptions,
  RateLimitOptions,
  RateLimitRule,
} from './options';
export { resolveAuthOptions } from './resolve-options';
export type {
  ResolvedAuthOptions,
  ResolvedEmail,
  ResolvedMagicCode,
  ResolvedMagicLink,
  ResolvedRateRule,
  ResolvedStrategy,
} from './resolved-options';
export { generateToken } from './secrets';
export { type HeaderBag, sessionCookie, sessionTokenFromHeaders } from './session-http';
export {
  type AuthSession,
  checkSessions,
  createSession,
  type FoundSession,
  findSession,
  revokeSession,
  revokeUserSessions,
} from './sessions';
