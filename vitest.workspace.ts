// Read by Vitest 3 (`vitest run` at the root runs every project listed here).
export default [
  'packages/*/vitest.config.ts',
  'examples/*/vitest.config.ts',
  'test/*/vitest.config.ts',
  'bench/vitest.config.mjs',
];
