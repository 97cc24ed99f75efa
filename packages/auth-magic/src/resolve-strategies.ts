import { invalidOption } from '@store/common';
import { escapeHtml } from './html';
import type { MagicEmailOptions, MailPart } from './mail-types';
import {
  collectionName,
  durationMs,
  fieldName,
  integer,
  optionalFunction,
  optionalTarget,
} from './option-checks';
import type { AuthHook, MagicCodeOptions, MagicLinkOptions, MagicStrategyOptions } from './options';
import type {
  ResolvedEmail,
  ResolvedMagicCode,
  ResolvedMagicLink,
  ResolvedStrategy,
} from './resolved-options';

/** Keys every strategy takes (docs/auth.md#options). */
const STRATEGY_KEYS = [
  'emailField',
  'collection',
  'max',
  'exp',
  'redirectNotFound',
  'redirectAlreadyUsed',
  'redirectSuccess',
  'doVerify',
  'doGenerate',
  'doRetrieve',
  'email',
] as const satisfies readonly (keyof MagicStrategyOptions)[];

const LINK_KEYS = [
  ...STRATEGY_KEYS,
  'pollApproval',
  'pollInterval',
] as const satisfies readonly (keyof MagicLinkOptions)[];
const CODE_KEYS = [
  ...STRATEGY_KEYS,
  'length',
  'maxAttempts',
  'maxGuesses',
] as const satisfies readonly (keyof MagicCodeOptions)[];

/** Keys that look like options but are not (other names for hooks, common slips), and what to write instead. */
const LEGACY_HINTS: Readonly<Record<string, string>> = {
  doBeforeRetrieve: 'doBeforeRetrieve is doRetrieve here (runs before a session is handed out)',
  doBeforeVerify: 'doBeforeVerify is doVerify here',
  doBeforeGenerate: 'doBeforeGenerate is doGenerate here',
  expires: 'the lifetime is exp here',
  ttl: 'the lifetime is exp here',
};

/** An unknown key (a misspelled hook is a hook that silently never runs) is an `invalid_config`. */
function checkKeys(prefix: string, options: object, known: readonly string[]): void {
  for (const key of Object.keys(options)) {
    if (known.includes(key)) continue;
    const hint = Object.hasOwn(LEGACY_HINTS, key) ? `${LEGACY_HINTS[key]}; ` : '';
    invalidOption(`${prefix}.${key}`, `unknown option (${hint}known: ${known.join(', ')})`);
  }
}

/** Values every strategy inherits from the top-level options. */
interface Shared {
  emailField: string;
  from: string;
  now: Date;
}

/** Settings that differ between the two strategies. */
interface StrategyDefaults {
  prefix: string;
  collection: string;
  exp: string;
  subject: string;
  text: MailPart;
  html: MailPart;
}

/** Link mails carry the url; code mails carry the code. */
const LINK_DEFAULTS: StrategyDefaults = {
  prefix: 'magicLink',
  collection: 'svc-magic-links',
  exp: 'in one day',
  subject: 'Your sign-in link',
  text: (_user, _token, url) => url,
  html: (_user, _token, url) => escapeHtml(url),
};

/** See {@link LINK_DEFAULTS}. */
const CODE_DEFAULTS: StrategyDefaults = {
  prefix: 'magicCode',
  collection: 'svc-magic-codes',
  exp: '10 minutes',
  subject: 'Your sign-in code',
  text: (_user, code) => code,
  html: (_user, code) => escapeHtml(code),
};

function resolveEmail(
  name: string,
  email: MagicEmailOptions | undefined,
  defaults: StrategyDefaults,
  from: string,
): ResolvedEmail {
  const options = email ?? {};
  const text = optionalFunction<MailPart>(`${name}.text`, options.text);
  const html = optionalFunction<MailPart>(`${name}.html`, options.html);
  return {
    from: options.from ?? from,
    subject: options.subject ?? defaults.subject,
    text: text ?? defaults.text,
    html: html ?? defaults.html,
    replyTo: options.replyTo,
    headers: options.headers,
  };
}

/** The options both strategies share (docs/auth.md#options). */
function resolveStrategy(
  options: MagicStrategyOptions,
  defaults: StrategyDefaults,
  shared: Shared,
): ResolvedStrategy {
  const p = defaults.prefix;
  return {
    emailField: fieldName(`${p}.emailField`, options.emailField, shared.emailField),
    collection: collectionName(`${p}.collection`, options.collection, defaults.collection),
    max: integer(`${p}.max`, options.max, 3, 1, 100),
    expMs: durationMs(`${p}.exp`, options.exp, defaults.exp, shared.now),
    redirectNotFound: optionalTarget(`${p}.redirectNotFound`, options.redirectNotFound),
    redirectAlreadyUsed: optionalTarget(`${p}.redirectAlreadyUsed`, options.redirectAlreadyUsed),
    redirectSuccess: optionalTarget(`${p}.redirectSuccess`, options.redirectSuccess),
    doVerify: optionalFunction<AuthHook>(`${p}.doVerify`, options.doVerify),
    doGenerate: optionalFunction<AuthHook>(`${p}.doGenerate`, options.doGenerate),
    doRetrieve: optionalFunction<AuthHook>(`${p}.doRetrieve`, options.doRetrieve),
    email: resolveEmail(`${p}.email`, options.email, defaults, shared.from),
  };
}

/** `magicLink` with defaults: the shared options plus the poll options. */
export function resolveMagicLink(options: MagicLinkOptions, shared: Shared): ResolvedMagicLink {
  checkKeys('magicLink', options, LINK_KEYS);
  return {
    ...resolveStrategy(options, LINK_DEFAULTS, shared),
    pollApproval: optionalTarget('magicLink.pollApproval', options.pollApproval),
    pollInterval: integer('magicLink.pollInterval', options.pollInterval, 2, 1, 60),
  };
}

/** `magicCode` with defaults: the shared options plus `length`, `maxAttempts` and `maxGuesses`. */
export function resolveMagicCode(options: MagicCodeOptions, shared: Shared): ResolvedMagicCode {
  checkKeys('magicCode', options, CODE_KEYS);
  const maxAttempts = integer('magicCode.maxAttempts', options.maxAttempts, 5, 1, 100);
  return {
    ...resolveStrategy(options, CODE_DEFAULTS, shared),
    length: integer('magicCode.length', options.length, 6, 4, 12),
    maxAttempts,
    maxGuesses: integer('magicCode.maxGuesses', options.maxGuesses, 10 * maxAttempts, maxAttempts, 1000),
  };
}
