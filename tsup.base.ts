import type { Options } from 'tsup';

/**
 * The build every `@store/*` package shares, imported by each package's `tsup.config.ts`:
 * ESM and CommonJS with their `.d.ts`/`.d.cts` and source maps, for Node 20, `dist` cleaned first.
 * `entry` lists the package's public entry points (the ones its `exports` map names).
 */
export function packageBuild(entry: string[] = ['src/index.ts']): Options {
  return { entry, format: ['esm', 'cjs'], dts: true, clean: true, sourcemap: true, target: 'node20' };
}
