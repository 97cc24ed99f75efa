import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const here = fileURLToPath(new URL('.', import.meta.url));

/** Asks the built store, loaded with `load`, for a file of the `/docs` page; prints status, type and length. */
const script = (load: string) => `${load}
const store = createStoreHandler({ openapi: true });
store({ method: 'GET', path: '/docs/swagger-ui-bundle.js', rawQuery: '', headers: {} })
  .then((answer) => console.log(answer.status, answer.headers['content-type'], answer.body.length > 1e6))
  .finally(() => store.close());`;

/** The `/docs` page's files are found next to the package, from the ESM and the CommonJS build alike. */
describe('the built @store/core', () => {
  it.each([
    ['ESM', ['--input-type=module', '-e', script("import { createStoreHandler } from '@store/core';")]],
    [
      'CommonJS',
      ['--input-type=commonjs', '-e', script("const { createStoreHandler } = require('@store/core');")],
    ],
  ])('serves the /docs page files when loaded as %s', (_, args) => {
    const output = execFileSync(process.execPath, args, { cwd: here, encoding: 'utf8' });
    expect(output.trim()).toBe('200 text/javascript; charset=utf-8 true');
  });
});
