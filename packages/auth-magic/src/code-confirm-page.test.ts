import { describe, expect, it } from 'vitest';
import { codeConfirmPage } from './code-confirm-page';

const proof = 'a'.repeat(64);

describe('codeConfirmPage', () => {
  it('names the account in full, escaped, with a button posting the proof back to the same URL', () => {
    const page = codeConfirmPage({ email: "o'neil&co@example.test", proof });
    expect(page.status).toBe(200);
    expect(page.body).toContain('<h1>Sign in as o&#39;neil&amp;co@example.test?</h1>');
    expect(page.body).toContain(
      `<form method="post"><input type="hidden" name="confirm" value="${proof}"><button type="submit">Sign in as o&#39;neil&amp;co@example.test</button></form>`,
    );
    expect(page.body).not.toMatch(/<script|action=/);
  });

  it('cannot be framed, cached or run anything, and its form posts only to its own origin', () => {
    const { headers } = codeConfirmPage({ email: 'ada@example.test', proof });
    expect(headers).toMatchObject({
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'no-store',
      'Referrer-Policy': 'no-referrer',
      'X-Frame-Options': 'DENY',
    });
    expect(headers['Content-Security-Policy']).toMatch(
      /^default-src 'none'; style-src 'sha256-[\w+/=]+'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'$/,
    );
  });

  it('refuses a proof that is not a hex HMAC', () => {
    expect(() => codeConfirmPage({ email: 'ada@example.test', proof: '"><script>' })).toThrow(TypeError);
  });
});
