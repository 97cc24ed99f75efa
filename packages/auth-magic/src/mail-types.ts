import type { AuthDocument } from './db';

/** A message as handed to the transport (a subset of nodemailer's message options). */
export interface MailMessage {
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  replyTo?: string;
  headers?: Record<string, string>;
}

/** Anything that sends: a nodemailer transporter fits, so does the test kit's capturing mailer. */
export interface MailTransport {
  sendMail(message: MailMessage): Promise<unknown>;
}

/**
 * The `mailer` option: a transporter, nodemailer transport options, an SMTP URL
 * (`smtp://127.0.0.1:2525`), or `null` to print messages to stdout.
 */
export type MailerOption = MailTransport | Record<string, unknown> | string | null;

/**
 * Builds one part of a message from the user (`null` when no user has the address yet), the
 * secret (link token or code) and the url (the absolute link; for codes, the GET verification
 * address, or `''` without `baseUrl`).
 */
export type MailPart = (user: AuthDocument | null, token: string, url: string) => string;

/** Message options of a strategy (its `email` option, docs/auth.md#options). */
export interface MagicEmailOptions {
  /** Sender. @default 'no-reply@<host of baseUrl>' ('no-reply@localhost' without baseUrl) */
  from?: string;
  /** @default 'Your sign-in link' / 'Your sign-in code' */
  subject?: string;
  /** Text part. @default the url alone (links), the code alone (codes) */
  text?: MailPart;
  /** HTML part. @default the url alone, HTML-escaped (links), the code alone (codes) */
  html?: MailPart;
  replyTo?: string;
  headers?: Record<string, string>;
}
