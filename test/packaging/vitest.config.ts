import { defineConfig } from 'vitest/config';

// No aliases here: this project must see the built packages exactly as npm users do.
export default defineConfig({ test: { name: 'packaging', include: ['*.test.ts'] } });
