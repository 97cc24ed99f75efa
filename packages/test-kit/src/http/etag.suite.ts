import { describe, expect, it } from 'vitest';
import type { Start } from './fixtures';

/** Contract section 11: entity tags and `If-None-Match` on reads. */
export function etagTests(start: Start): void {
  describe('ETag and If-None-Match on reads', () => {
    it('tags a document strongly, keeps the tag while it is unchanged and changes it with a write', async () => {
      const api = await start();
      await api.seed('notes', [{ _id: 'n1', text: 'a' }]);
      const first = await api.get('/notes/n1');
      const tag = first.headers.get('etag');
      expect(tag).toMatch(/^"[\w-]+"$/);
      expect((await api.get('/notes/n1')).headers.get('etag')).toBe(tag);
      await api.request('PATCH', '/notes/n1', { body: { text: 'b' } });
      expect((await api.get('/notes/n1')).headers.get('etag')).not.toBe(tag);
    });

    it('answers 304 without a body when If-None-Match names the current tag, 200 when it does not', async () => {
      const api = await start();
      await api.seed('notes', [{ _id: 'n1', text: 'a' }]);
      const tag = (await api.get('/notes/n1')).headers.get('etag') as string;
      const cached = await api.request('GET', '/notes/n1', { headers: { 'if-none-match': tag } });
      expect(cached.status).toBe(304);
      expect(cached.text).toBe('');
      expect(cached.headers.get('etag')).toBe(tag);
      const stale = await api.request('GET', '/notes/n1', { headers: { 'if-none-match': '"other"' } });
      expect(stale.status).toBe(200);
    });

    it('tags a list weakly and answers 304 until the list changes', async () => {
      const api = await start();
      await api.seed('notes', [{ _id: 'n1', text: 'a' }]);
      const tag = (await api.get('/notes')).headers.get('etag') as string;
      expect(tag).toMatch(/^W\/"[\w-]+"$/);
      expect((await api.request('GET', '/notes', { headers: { 'if-none-match': tag } })).status).toBe(304);
      await api.post('/notes', { _id: 'n2' });
      expect((await api.request('GET', '/notes', { headers: { 'if-none-match': tag } })).status).toBe(200);
    });

    it('puts no tag on errors or writes', async () => {
      const api = await start();
      expect((await api.get('/notes/missing')).headers.get('etag')).toBeNull();
      expect((await api.post('/notes', { _id: 'n1' })).headers.get('etag')).toBeNull();
    });
  });
}
