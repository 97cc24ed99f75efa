// The source trees a measurement runs: this checkout (or `--root`), and with `--compare <old
// root>` an older one first, each checked to be built.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const THIS_CHECKOUT = fileURLToPath(new URL('../..', import.meta.url));

/** `[{ label, root }]` for `--compare` / `--root`; exits with a message when one is not built. */
export function builtTrees(compare, root) {
  const trees = [
    ...(compare === undefined ? [] : [{ label: 'old', root: resolve(compare) }]),
    { label: compare === undefined ? 'store' : 'new', root: resolve(root ?? THIS_CHECKOUT) },
  ];
  for (const tree of trees) {
    for (const pkg of ['core', 'adapter-express', 'embedded']) {
      if (!existsSync(`${tree.root}/packages/${pkg}/dist/index.js`)) {
        console.error(`${tree.root}/packages/${pkg} is not built: run \`pnpm build\` there first.`);
        process.exit(1);
      }
    }
  }
  return trees;
}
