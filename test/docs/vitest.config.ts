import { defineConfig } from 'vitest/config';

// No aliases: the blocks are checked against the built packages, as a reader would use them.
export default defineConfig({ test: { name: 'docs', include: ['*.test.ts'] } });
