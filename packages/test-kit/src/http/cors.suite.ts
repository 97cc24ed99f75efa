import { describe, expect, it } from 'vitest';
import type { Start } from './fixtures';
import { expectProblem } from './harness';

const APP = 'https://app.example.com';
const preflight = (origin: string, headers: Record<string, string> = {}) => ({
  headers: { origin, 'access-control-request-method': 'POST', ...headers },
});

/**
 * CORS: `cors` answers preflights for the store's routes and puts CORS headers
 * on its answers; without it a preflight is refused and no answer carries them.
 */
export function corsTests(start: Start): void {
  describe('CORS (cors option)', () => {
    it('answers a preflight from another origin with cors: true', async () => {
      const api = await start({ cors: true });
      const reply = await api.request(
        'OPTIONS',
        '/posts',
        preflight(APP, { 'access-control-request-headers': 'content-type, authorization' }),
      );
      expect(reply.status).toBe(204);
      expect(reply.headers.get('access-control-allow-origin')).toBe('*');
      expect(reply.headers.get('access-control-allow-methods')).toContain('PATCH');
      expect(reply.headers.get('access-control-allow-headers')).toBe('content-type, authorization');
    });

    it('refuses the preflight without cors, and answers carry no CORS header', async () => {
      const api = await start();
      const reply = await api.request('OPTIONS', '/posts', preflight(APP));
      expect(reply.status).toBe(405);
      expect(reply.headers.get('access-control-allow-origin')).toBeNull();
      const list = await api.request('GET', '/posts', { headers: { origin: APP } });
      expect(list.headers.get('access-control-allow-origin')).toBeNull();
    });

    it('puts the origin and exposed headers on answers, errors included', async () => {
      const api = await start({ cors: true });
      const list = await api.request('GET', '/posts', { headers: { origin: APP } });
      expect(list.headers.get('access-control-allow-origin')).toBe('*');
      expect(list.headers.get('access-control-expose-headers')).toMatch(
        /X-Total-Count.*Link.*ETag.*Location.*Retry-After.*RateLimit.*RateLimit-Policy/,
      );
      const missing = await api.request('GET', '/posts/nope', { headers: { origin: APP } });
      expect(missing.status).toBe(404);
      expect(missing.headers.get('access-control-allow-origin')).toBe('*');
    });

    it('allows only the listed origins, echoing them with credentials', async () => {
      const api = await start({ cors: { origins: [APP], credentials: true } });
      const allowed = await api.request('OPTIONS', '/posts/1', preflight(APP));
      expect(allowed.status).toBe(204);
      expect(allowed.headers.get('access-control-allow-origin')).toBe(APP);
      expect(allowed.headers.get('access-control-allow-credentials')).toBe('true');
      expect(allowed.headers.get('vary')).toContain('Origin');

      expectProblem(
        await api.request('OPTIONS', '/posts', preflight('https://evil.example')),
        403,
        'origin_not_allowed',
      );
      const other = await api.request('GET', '/posts', { headers: { origin: 'https://evil.example' } });
      expect(other.status).toBe(200);
      expect(other.headers.get('access-control-allow-origin')).toBeNull();
    });

    it("leaves a preflight for a path that is not the store's to the host", async () => {
      const api = await start({ cors: true });
      const reply = await api.request('OPTIONS', '/-not-a-resource', preflight(APP));
      expect(reply.headers.get('access-control-allow-origin')).toBeNull();
    });
  });
}
