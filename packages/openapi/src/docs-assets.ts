/**
 * The files of the `/docs` page, served by the store itself (no CDN): Swagger UI's browser
 * bundle and style sheet from the `swagger-ui-dist` package, read from disk once, on the first
 * request that needs them.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

/** A file the page loads: its body, ready to send, and its `content-type`. */
export interface DocsAsset {
  readonly body: string;
  readonly type: string;
}

/** The files of `swagger-ui-dist` the page loads, by the name it loads them under `docs/`. */
const ASSETS: Readonly<Record<string, { file: string; type: string }>> = {
  'swagger-ui-bundle.js': {
    file: 'swagger-ui-dist/swagger-ui-bundle.js',
    type: 'text/javascript; charset=utf-8',
  },
  'swagger-ui.css': { file: 'swagger-ui-dist/swagger-ui.css', type: 'text/css; charset=utf-8' },
};

let required: NodeJS.Require | undefined;
/** Resolves from this package: `import.meta.url` in the ESM build, tsup's shim of it in the CommonJS one. */
const requireFromHere = () => {
  required ??= createRequire(import.meta.url);
  return required;
};
const loaded = new Map<string, DocsAsset>();
let version: string | undefined;

/** The installed `swagger-ui-dist` version: the page adds it to the files' URLs, which are cached for a year. */
export function rendererVersion(): string {
  version ??= (requireFromHere()('swagger-ui-dist/package.json') as { version: string }).version;
  return version;
}

/** Whether `name` is a file of the page. */
export function isDocsAsset(name: string): boolean {
  return Object.hasOwn(ASSETS, name);
}

/** The file `name` (one of {@link isDocsAsset}), read on first use. Throws when the package is missing. */
export function docsAsset(name: string): DocsAsset {
  const cached = loaded.get(name);
  if (cached !== undefined) return cached;
  const { file, type } = ASSETS[name] as { file: string; type: string };
  const body = readFileSync(requireFromHere().resolve(file), 'utf8');
  const asset = { body, type };
  loaded.set(name, asset);
  return asset;
}
