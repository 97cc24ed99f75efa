import { describe, expect, it } from 'vitest';
import { confirmPage } from './confirm-page';
import type { LinkInspection } from './flows/inspect-link';
import { resolveAuthOptions } from './resolve-options';
import { generateToken } from './secrets';

const token = generateToken();
const inspection: LinkInspection = {
  status: 'confirm',
  requestedAt: new Date('2025-03-01T12:00:00Z'),
  ip: '203.0.113.7',
  userAgent: '<script>alert("x")</script> & Mozilla',
  expiresAt: new Date('2025-03-02T12:00:00Z'),
};
const options = (pollApproval?: string) =>
  resolveAuthOptions({
    secret: 'a-secret-of-16+chars',
    baseUrl: 'https://shop.example/api',
    magicLink: { pollApproval },
    mailer: { sendMail: async () => ({}) },
  });

describe('confirmPage', () => {
  it('shows who asked, escaped, with a button POSTing to the link under baseUrl', () => {
    const page = confirmPage(options(), token, inspection);
    expect(page.status).toBe(200);
    expect(page.body).toContain('2025-03-01T12:00:00.000Z');
    expect(page.body).toContain('203.0.113.7');
    expect(page.body).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; Mozilla');
    expect(page.body).not.toContain('<script>');
    expect(page.body).toContain(
      `<form method="post" action="https://shop.example/api/auth/magic-link/${token}">`,
    );
  });

  it('sends the headers a token-bearing page needs', () => {
    const { headers } = confirmPage(options(), token, inspection);
    expect(headers).toMatchObject({
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'no-store',
      'Referrer-Policy': 'no-referrer',
    });
    expect(headers['Content-Security-Policy']).toMatch(
      /^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/=]+'; form-action https:\/\/shop\.example;/,
    );
  });

  it('shows "unknown" when the request had no IP or user agent', () => {
    const page = confirmPage(options(), token, { ...inspection, ip: null, userAgent: null });
    expect(page.body.match(/unknown/g)).toHaveLength(2);
  });

  it('redirects to the host page with the token when pollApproval is set', () => {
    expect(confirmPage(options('/confirm?lang=en'), token, inspection)).toMatchObject({
      status: 302,
      headers: {
        Location: `/confirm?lang=en&token=${token}`,
        'Cache-Control': 'no-store',
        'Referrer-Policy': 'no-referrer',
      },
    });
  });

  it('refuses a token that is not one', () => {
    expect(() => confirmPage(options(), '"><img>', inspection)).toThrow(TypeError);
  });
});
