import { defineConfig } from 'vitest/config';

// The example runs as a child process against the built packages, as `pnpm example:koa` does.
export default defineConfig({
  test: { name: 'example-koa', include: ['test/**/*.test.ts'], testTimeout: 20_000 },
});
