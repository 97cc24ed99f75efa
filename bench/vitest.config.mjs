import { defineConfig } from 'vitest/config';

// The report's arithmetic only: the benchmark itself is run by hand (`pnpm bench`), never in tests.
export default defineConfig({ test: { name: 'bench', include: ['lib/*.test.mjs'] } });
