// node scripts/check-packages.mjs   (after `pnpm build`: the tarballs hold dist/)
//
// Packs every publishable package under packages/ (`pnpm pack`, so `workspace:` ranges become
// versions as on publish) into a temporary folder, then lints each tarball with publint (package.json
// fields against the packed files; warnings count as errors) and @arethetypeswrong/cli (its types under
// every TypeScript module resolution). Then loads every entry of the built dist/ in a fresh Node,
// once by `require()` of its CommonJS file and once by `import()` of its ES file: a build whose code
// cannot run in one of the formats (`import.meta.url` in CommonJS without tsup's `shims`) fails.
// Exits 1 when any of these finds a problem in any package.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const packagesDir = join(root, 'packages');

const publishable = readdirSync(packagesDir, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && existsSync(join(packagesDir, entry.name, 'package.json')))
  .map((entry) => ({
    dir: join(packagesDir, entry.name),
    manifest: JSON.parse(readFileSync(join(packagesDir, entry.name, 'package.json'), 'utf8')),
  }))
  .filter(({ manifest }) => manifest.private !== true);

/** True when a tool exited 0 (its output went straight to the terminal). */
function passed(result) {
  if (result.error) throw result.error;
  return result.status === 0;
}

/**
 * Whether every entry of the package's `exports` loads in a fresh Node, by `require()` from its
 * CommonJS file and by `import()` from its ES file (each error printed).
 */
function loads(dir, manifest) {
  let ok = true;
  for (const [subpath, target] of Object.entries(manifest.exports ?? {})) {
    const files = [
      ['require', target?.require?.default, (file) => `require(${JSON.stringify(file)})`],
      [
        'import',
        target?.import?.default,
        (file) => `await import(${JSON.stringify(pathToFileURL(file).href)})`,
      ],
    ];
    for (const [how, relative, load] of files) {
      if (typeof relative !== 'string') continue;
      const file = join(dir, relative);
      const args = how === 'import' ? ['--input-type=module', '-e', load(file)] : ['-e', load(file)];
      const result = spawnSync(process.execPath, args, { cwd: dir, encoding: 'utf8' });
      if (result.status !== 0) {
        console.error(`${manifest.name} ${subpath}: ${how} of ${relative} failed:\n${result.stderr}`);
        ok = false;
      }
    }
  }
  return ok;
}

const out = mkdtempSync(join(tmpdir(), 'store-packages-'));
const failed = [];
try {
  for (const { dir, manifest } of publishable) {
    if (!existsSync(join(dir, 'dist'))) {
      throw new Error(`${manifest.name} has no dist/: run \`pnpm build\` first`);
    }
    const pack = spawnSync('pnpm', ['pack', '--pack-destination', out], { cwd: dir, encoding: 'utf8' });
    if (pack.error) throw pack.error;
    if (pack.status !== 0) throw new Error(`pnpm pack failed in ${dir}:\n${pack.stdout}${pack.stderr}`);
    const tarball = join(out, `${manifest.name.replace(/^@/, '').replace('/', '-')}-${manifest.version}.tgz`);
    const run = { cwd: root, stdio: 'inherit' };
    const publint = passed(spawnSync('pnpm', ['exec', 'publint', 'run', '--strict', tarball], run));
    const attw = passed(spawnSync('pnpm', ['exec', 'attw', '--no-emoji', tarball], run));
    if (!publint || !attw || !loads(dir, manifest)) failed.push(manifest.name);
  }
} finally {
  rmSync(out, { recursive: true, force: true });
}

if (failed.length > 0) {
  console.error(`\npackage check failed: ${failed.join(', ')}`);
  process.exit(1);
}
console.log(`\npackage check ok: ${publishable.map(({ manifest }) => manifest.name).join(' ')}`);
