import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const here = fileURLToPath(new URL('.', import.meta.url));

/** Asks a built store with the built plugin, loaded with `load`, for a file of the `/docs` page; prints status, type and length. */
const script = (load: string) => `${load}
const store = createStoreHandler({ plugins: [openapi()] });
store({ method: 'GET', path: '/docs/swagger-ui-bundle.js', rawQuery: '', headers: {} })
  .then((answer) => console.log(answer.status, answer.headers['content-type'], answer.body.length > 1e6))
  .finally(() => store.close());`;

const esm = "import { createStoreHandler } from '@store/core'; import { openapi } from '@store/openapi';";
const cjs =
  "const { createStoreHandler } = require('@store/core'); const { openapi } = require('@store/openapi');";

/** The `/docs` page's files are found next to the package, from the ESM and the CommonJS build alike. */
describe('the built @store/openapi', () => {
  it.each([
    ['ESM', ['--input-type=module', '-e', script(esm)]],
    ['CommonJS', ['--input-type=commonjs', '-e', script(cjs)]],
  ])('serves the /docs page files when loaded as %s', (_, args) => {
    const output = execFileSync(process.execPath, args, { cwd: here, encoding: 'utf8' });
    expect(output.trim()).toBe('200 text/javascript; charset=utf-8 true');
  });
});
