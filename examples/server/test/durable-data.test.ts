/**
 * The example keeps its data: a document POSTed before a restart
 * is there after it, in the STORE_DATA directory; a second server on the same directory stops
 * with the engine's message and a non-zero code instead of serving.
 */
import { once } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { freePort, runExampleToExit, startExample } from '../../test-support/start-example';

const serverFile = fileURLToPath(new URL('../src/server.js', import.meta.url));

async function started(data: string) {
  const port = await freePort();
  const example = await startExample(serverFile, port, { STORE_DATA: data });
  await example.waitFor(/storage ready|cannot start/);
  return { base: `http://127.0.0.1:${port}`, example };
}

async function stopped({ example }: Awaited<ReturnType<typeof started>>): Promise<void> {
  const exit = once(example.child, 'exit');
  example.child.kill('SIGTERM');
  await exit;
}

it('keeps a POSTed document across a restart, in the STORE_DATA directory', async () => {
  const data = join(mkdtempSync(join(tmpdir(), 'example-data-')), 'store');
  const first = await started(data);
  expect(first.example.output()).toContain(`data in ${data}`);
  const created = await fetch(`${first.base}/posts`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ title: 'kept' }),
  });
  expect(created.status).toBe(201);
  const { _id } = (await created.json()) as { _id: string };
  await stopped(first);

  const second = await started(data);
  const read = await fetch(`${second.base}/posts/${_id}`);
  expect(read.status).toBe(200);
  expect(await read.json()).toMatchObject({ _id, title: 'kept' });

  // It may exit before or after printing its engine: whichever comes first of listening and the lock.
  const third = await runExampleToExit(serverFile, await freePort(), { STORE_DATA: data });
  expect(third.code).toBe(1);
  expect(third.output).toMatch(/cannot start the store: the data directory .* is in use by process \d+/);
  await stopped(second);
});
