import type { HookContext } from '@store/core';
import { describe, expect, it, vi } from 'vitest';
import { STORE_SECRET, withAuth } from './auth-fixtures';
import type { Start } from './fixtures';
import { expectProblem } from './harness';

/** Every string reachable from `value` through own properties (bounded: a context is small). */
function reachableStrings(value: unknown, seen = new Set<unknown>(), depth = 0): string[] {
  if (typeof value === 'string') return [value];
  if (typeof value !== 'object' || value === null || seen.has(value) || depth > 12) return [];
  seen.add(value);
  return Object.entries(value).flatMap(([key, child]) => [key, ...reachableStrings(child, seen, depth + 1)]);
}

/** Hooks and access functions receive the narrow `HookContext`. */
export function hookContextTests(start: Start): void {
  describe('the HookContext hooks and access functions receive', () => {
    /** Starts a store with sign-in on whose `notes` hooks and rule hand their context to `seen`. */
    async function capture() {
      const seen: HookContext[] = [];
      const keep = (ctx: HookContext) => {
        seen.push(ctx);
      };
      const api = await start(
        withAuth({
          resources: {
            notes: {
              access: (ctx) => {
                keep(ctx);
                return true;
              },
              hooks: { beforeRead: keep, afterRead: (ctx) => keep(ctx) },
            },
          },
        }),
      );
      await api.seed('notes', [{ _id: 'n1', text: 'hi' }]);
      seen.length = 0;
      return { api, seen };
    }

    it('carries the request facts, resource, operation, query and flags', async () => {
      const { api, seen } = await capture();
      expect((await api.get('/notes?text=hi&$$tenant=acme')).status).toBe(200);
      expect(seen.length).toBeGreaterThanOrEqual(3);
      for (const ctx of seen) {
        expect(ctx).toMatchObject({
          method: 'GET',
          operation: 'read',
          resource: { name: 'notes', collection: 'notes' },
          flags: { tenant: 'acme' },
          user: null,
          session: null,
        });
        expect(ctx.query.filter).toEqual({ text: 'hi' });
      }
    });

    it('holds neither the store secret nor the store options anywhere', async () => {
      const { api, seen } = await capture();
      await api.get('/notes');
      for (const ctx of seen) {
        // The secret `withAuth` configures: no hook may find it anywhere in what it receives.
        expect(reachableStrings(ctx)).not.toContain(STORE_SECRET);
        expect(Object.keys(ctx)).not.toContain('options');
      }
    });

    it('reaches routable resources but never the sessions or the sign-in secrets', async () => {
      const { api, seen } = await capture();
      await api.get('/notes');
      const ctx = seen[0] as HookContext;
      expect(await ctx.db.collection('notes').countDocuments({})).toBe(1);
      for (const internal of [
        'svc-sessions',
        'svc-magic-links',
        'svc-magic-codes',
        'svc-rate-limits',
        'user',
      ]) {
        expect(() => ctx.db.collection(internal), internal).toThrow(/no route reaches/);
      }
    });

    it('gives a frozen query: a hook cannot change what the request asked', async () => {
      const warn = vi.fn();
      const api = await start({
        logger: { error: console.error, warn },
        resources: {
          notes: {
            hooks: {
              beforeRead: (ctx) => {
                (ctx.query.filter as Record<string, unknown>).text = 'other';
              },
            },
          },
        },
      });
      await api.seed('notes', [{ _id: 'n1', text: 'hi' }]);
      // The hook's TypeError (assigning to a frozen object) has no HTTP status: a 403.
      expectProblem(await api.get('/notes?text=hi'), 403, 'forbidden');
      expect(warn).toHaveBeenCalledWith(
        expect.stringContaining('without an HTTP status'),
        expect.any(TypeError),
      );
    });
  });
}
