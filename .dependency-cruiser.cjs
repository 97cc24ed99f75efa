// @ts-check
/**
 * The architecture rules `pnpm lint` enforces (dependency-cruiser):
 * - no import cycle, type-only imports included;
 * - the layer arrows between the packages' sources: common <- query <- populate <- core <- adapters,
 *   embedded <- core (loaded lazily), auth-magic and openapi over core; nothing imports an adapter, test-kit or cli;
 * - only examples and test code import @store/auth-magic; only the cli, examples and test code import @store/openapi;
 * - no file reaches into another package (or example, or the bench) by relative path;
 * - inside a package, the top-level folders of `src/` stand in one order (`FOLDER_ORDER`): a folder's
 *   shipped files import only the folders before it, so no two folders import each other, even through others.
 *
 * `@store/<name>` resolves to `packages/<name>/src/` through `tsconfig.depcruise.json`'s paths (as
 * Vitest's alias does), so the rules see package arrows by resolved path and cycles through sources.
 */

/** Files of a package's sources that ship: not the tests colocated in src/. */
const shipped = (pkg) => ({ path: `^packages/${pkg}/src/`, pathNot: '\\.test\\.ts$' });

/** `pkg`'s shipped sources may import only its own files and the `allowed` packages. */
const layer = (pkg, allowed, comment) => ({
  name: `layer-${pkg.replace('-[^/]+', 's')}`,
  comment,
  severity: 'error',
  from: shipped(pkg),
  to: { path: '^packages/', pathNot: `^packages/(${[pkg, ...allowed].join('|')})/` },
});

/**
 * The top-level folders of each package's `src/`, bottom first (files directly in `src/`, such as
 * `index.ts`, stand outside the order). docs/architecture.md draws core's.
 */
const FOLDER_ORDER = {
  core: ['model', 'http', 'hooks', 'access', 'storage', 'config', 'read', 'write', 'realtime', 'handler'],
  'auth-magic': ['flows', 'http'],
  embedded: ['compiled-filter', 'aggregate', 'durable'],
  'test-kit': ['wire', 'http'],
  query: ['dialects'],
};

/** One rule per folder: its shipped files import no folder after it in its package's order. */
const folderRules = Object.entries(FOLDER_ORDER).flatMap(([pkg, folders]) =>
  folders.slice(0, -1).map((folder, index) => ({
    name: `folder-order-${pkg}-${folder}`,
    comment: `In ${pkg}, src/${folder}/ imports only the folders below it: ${folders.slice(0, index).join(', ') || 'none'}.`,
    severity: 'error',
    from: { path: `^packages/${pkg}/src/${folder}/`, pathNot: '\\.test(-support)?\\.ts$' },
    to: { path: `^packages/${pkg}/src/(${folders.slice(index + 1).join('|')})/` },
  })),
);

/** Every top-level folder of a package's `src/` has its place in `FOLDER_ORDER`. */
const foldersInOrder = {
  name: 'folder-in-order',
  comment:
    "A new top-level folder of a package's src/ takes its place in FOLDER_ORDER (.dependency-cruiser.cjs).",
  severity: 'error',
  from: {
    path: '^packages/[^/]+/src/[^/]+/',
    pathNot: `^packages/(${Object.entries(FOLDER_ORDER)
      .map(([pkg, folders]) => `${pkg}/src/(${folders.join('|')})`)
      .join('|')})/`,
  },
  to: {},
};

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...folderRules,
    foldersInOrder,
    {
      name: 'no-circular',
      comment: 'No import cycle, type-only imports included.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'not-to-unresolvable',
      comment: 'Every import resolves (a missing dependency or a misspelt path).',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
    layer('common', [], '@store/common is the bottom layer: it imports no other @store package.'),
    layer('query', ['common'], '@store/query imports only @store/common.'),
    layer('embedded', ['common'], '@store/embedded imports only @store/common.'),
    layer('populate', ['query', 'common'], '@store/populate imports only @store/query and @store/common.'),
    layer(
      'core',
      ['populate', 'query', 'common', 'embedded'],
      '@store/core imports only populate, query, common and (lazily) embedded.',
    ),
    layer(
      'auth-magic',
      ['core', 'common', 'embedded'],
      '@store/auth-magic imports only core and common (core compiles the query string for it), and embedded in its testing entry.',
    ),
    layer(
      'openapi',
      ['core', 'common', 'query', 'populate'],
      '@store/openapi imports only core (its public types and storeError), common, query and populate.',
    ),
    layer('adapter-[^/]+', ['core', 'common'], 'An adapter imports only @store/core and @store/common.'),
    layer(
      'cli',
      ['core', 'embedded', 'query', 'common', 'openapi'],
      'The cli imports only core, embedded (it opens data directories itself), query and common; it may import openapi.',
    ),
    {
      name: 'no-adapter-test-kit-or-cli-in-src',
      comment: 'Nothing under packages/*/src imports an adapter, the test kit or the cli.',
      severity: 'error',
      from: { path: '^packages/([^/]+)/src/' },
      to: { path: '^packages/(adapter-[^/]+|test-kit|cli)/', pathNot: '^packages/$1/' },
    },
    {
      name: 'auth-magic-only-from-examples-and-tests',
      comment: 'Only examples and test code (test/*, test-kit, auth-magic itself) import @store/auth-magic.',
      severity: 'error',
      from: { path: '^(packages|bench)/', pathNot: '^packages/(auth-magic|test-kit)/' },
      to: { path: '^packages/auth-magic/' },
    },
    {
      name: 'openapi-only-from-cli-examples-and-tests',
      comment:
        "Only the cli, examples and test code (test/*, test-kit, any package's tests) import @store/openapi: core never does.",
      severity: 'error',
      from: {
        path: '^(packages|bench)/',
        pathNot: ['^packages/(openapi|cli|test-kit)/', '^packages/[^/]+/test/', '\\.test\\.ts$'],
      },
      to: { path: '^packages/openapi/' },
    },
    {
      name: 'no-relative-import-across-packages',
      comment: 'A package, test project or the bench imports another one by name, never by relative path.',
      severity: 'error',
      from: { path: '^(packages/[^/]+|test/[^/]+|bench)/' },
      to: {
        dependencyTypes: ['local'],
        dependencyTypesNot: ['aliased'],
        path: '^(packages|examples|test|bench)/',
        pathNot: '^$1/',
      },
    },
    {
      name: 'no-relative-import-across-examples',
      comment:
        'An example imports another package by name; by relative path only itself and examples/test-support.',
      severity: 'error',
      from: { path: '^examples/([^/]+)/' },
      to: {
        dependencyTypes: ['local'],
        dependencyTypesNot: ['aliased'],
        path: '^(packages|examples|test|bench)/',
        pathNot: '^examples/($1|test-support)/',
      },
    },
  ],
  // `local` marks a dependency resolved by path; an `@store/*` import resolved through the tsconfig paths is
  // `local` too, but also `aliased`, which is how the two relative-import rules tell them apart.
  options: {
    doNotFollow: { path: ['node_modules'] },
    exclude: { path: ['(^|/)dist/', '(^|/)node_modules/', '^bench/results\\.'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.depcruise.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['types', 'import', 'require', 'node', 'default'],
      mainFields: ['types', 'module', 'main'],
      extensions: ['.ts', '.d.ts', '.mts', '.cts', '.js', '.mjs', '.cjs', '.json'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
