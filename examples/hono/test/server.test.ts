import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { describeExampleSmoke, itAnswersBadInputWithAProblem } from '../../test-support/describe-example';

const serverFile = fileURLToPath(new URL('../src/server.js', import.meta.url));

describeExampleSmoke('Hono example', serverFile, (running) => {
  itAnswersBadInputWithAProblem(running);

  it('passes other paths on to the Hono app', async () => {
    expect(await (await fetch(`${running.base}/`)).text()).toBe('@store on Hono: try /posts');
  });
});
