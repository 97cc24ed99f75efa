import { defineConfig } from 'vitest/config';

// The example runs as a child process against the built packages, as `pnpm example:hono` does.
export default defineConfig({
  test: { name: 'example-hono', include: ['test/**/*.test.ts'], testTimeout: 20_000 },
});
