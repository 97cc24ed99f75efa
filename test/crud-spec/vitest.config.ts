import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const packagesDir = fileURLToPath(new URL('../../packages/', import.meta.url));

// `@store/*` resolves to the packages' sources, as in the packages' own tests.
export default defineConfig({
  resolve: {
    alias: [
      { find: /^@store\/auth-magic\/testing$/, replacement: `${packagesDir}auth-magic/src/testing.ts` },
      { find: /^@store\/([a-z-]+)$/, replacement: `${packagesDir}$1/src/index.ts` },
    ],
  },
  test: { name: 'crud-spec', include: ['*.test.ts'], testTimeout: 20_000, hookTimeout: 30_000 },
});
