import { invalidOption } from '@store/common';
import nodemailer from 'nodemailer';
import type { AuthDocument } from './db';
import { AuthError } from './errors';
import type { MailerOption, MailMessage, MailTransport } from './mail-types';
import type { AuthLogger } from './options';
import type { ResolvedEmail } from './resolved-options';

/** Prints each message (recipient, subject, text part) instead of sending it. */
function stdoutTransport(logger: AuthLogger): MailTransport {
  return {
    async sendMail(message) {
      logger.log(`[auth-magic] mail to ${message.to}\nSubject: ${message.subject}\n\n${message.text}\n`);
      return { printed: true };
    },
  };
}

function isTransport(option: object): option is MailTransport {
  return typeof (option as { sendMail?: unknown }).sendMail === 'function';
}

/** nodemailer's connection, greeting and inactivity timeouts, unless the transport options set them. */
function withTimeouts(options: Record<string, unknown>, timeoutMs: number): Record<string, unknown> {
  return {
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
    dnsTimeout: timeoutMs,
    ...options,
  };
}

/**
 * The transport for the `mailer` option: a transporter as is; transport options or an
 * `smtp:`/`smtps:` URL through `nodemailer.createTransport`, with connection, greeting and socket
 * timeouts of `timeoutMs` (transport options may set their own); `null` prints to stdout with ONE
 * warning.
 */
export function createMailTransport(
  option: MailerOption | undefined,
  logger: AuthLogger,
  timeoutMs: number,
): MailTransport {
  if (option === undefined || option === null) {
    logger.warn('[auth-magic] no `mailer` configured: sign-in messages are printed to stdout, not sent');
    return stdoutTransport(logger);
  }
  if (typeof option === 'string') {
    if (!/^smtps?:\/\//.test(option)) invalidOption('mailer', 'expected an smtp:// or smtps:// URL');
    return nodemailer.createTransport(withTimeouts({ url: option }, timeoutMs));
  }
  if (typeof option !== 'object' || Array.isArray(option)) {
    return invalidOption('mailer', 'expected a transporter, transport options, an SMTP URL or null');
  }
  return isTransport(option) ? option : nodemailer.createTransport(withTimeouts(option, timeoutMs));
}

/** nodemailer error codes meaning "the mail server cannot be reached now" (503); others are 502. */
const UNAVAILABLE_CODES: ReadonlySet<string> = new Set([
  'ECONNECTION',
  'ECONNREFUSED',
  'ETIMEDOUT',
  'ESOCKET',
  'EDNS',
]);

/** Maps a transport failure to 503 `mail_unavailable` (unreachable, SMTP 4xx) or 502 `mail_failed`. */
export function mailError(error: unknown): AuthError {
  const { code, responseCode } = (typeof error === 'object' && error !== null ? error : {}) as {
    code?: unknown;
    responseCode?: unknown;
  };
  const temporary = typeof responseCode === 'number' && responseCode >= 400 && responseCode < 500;
  if (temporary || (typeof code === 'string' && UNAVAILABLE_CODES.has(code))) {
    return new AuthError('mail_unavailable', 'The mail server is unavailable; try again later');
  }
  return new AuthError('mail_failed', 'The message could not be sent');
}

/** Builds the message for one secret from the strategy's resolved `email` options. */
export function buildMessage(
  email: ResolvedEmail,
  to: string,
  part: { user: AuthDocument | null; token: string; url: string },
): MailMessage {
  const message: MailMessage = {
    from: email.from,
    to,
    subject: email.subject,
    text: email.text(part.user, part.token, part.url),
    html: email.html(part.user, part.token, part.url),
  };
  if (email.replyTo !== undefined) message.replyTo = email.replyTo;
  if (email.headers !== undefined) message.headers = { ...email.headers };
  return message;
}

/**
 * Sends, turning any transport failure into an `AuthError` (502/503) without leaking its text.
 * A send still pending after `timeoutMs` (any transport, a custom one included) is a 503
 * `mail_unavailable`: a hanging mail server never hangs the request.
 */
export async function sendMessage(
  transport: MailTransport,
  message: MailMessage,
  timeoutMs: number,
): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(
      () => reject(Object.assign(new Error('send timed out'), { code: 'ETIMEDOUT' })),
      timeoutMs,
    );
  });
  try {
    await Promise.race([transport.sendMail(message), deadline]);
  } catch (error) {
    throw mailError(error);
  } finally {
    clearTimeout(timer);
  }
}
