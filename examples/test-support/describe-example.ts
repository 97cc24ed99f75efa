import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Example, freePort, runExampleToExit, startExample } from './start-example';

/** The example a suite runs against, readable once its `beforeAll` has started it. */
export interface RunningExample {
  /** `http://127.0.0.1:<port>`, where the example listens. */
  readonly base: string;
  readonly example: Example;
}

/**
 * Declares `name`: starts `serverFile` on a free port before its cases and stops it after, runs
 * the smoke cases every example passes (its printed address, a POST then a filtered GET), then
 * the example's own cases that `cases` declares against the running example.
 */
export function describeExampleSmoke(
  name: string,
  serverFile: string,
  cases: (running: RunningExample) => void = () => {},
): void {
  describe(name, () => {
    let started: RunningExample | undefined;
    const startedOrThrow = (): RunningExample => {
      if (started === undefined) throw new Error(`the ${name} example has not started`);
      return started;
    };
    const running: RunningExample = {
      get base() {
        return startedOrThrow().base;
      },
      get example() {
        return startedOrThrow().example;
      },
    };

    beforeAll(async () => {
      const port = await freePort();
      started = { base: `http://127.0.0.1:${port}`, example: await startExample(serverFile, port) };
    });

    afterAll(() => {
      started?.example.child.kill('SIGTERM');
    });

    smokeCases(running);

    it('exits with code 1 and says so, printing no address, when its port is taken', async () => {
      const port = Number(new URL(running.base).port);
      const { code, output } = await runExampleToExit(serverFile, port);
      expect(code).toBe(1);
      expect(output).toContain(`port ${port} on 127.0.0.1 is already in use`);
      expect(output).not.toContain('listening');
    });
    cases(running);
  });
}

function smokeCases(running: RunningExample): void {
  it('prints its address and the embedded engine', () => {
    expect(running.example.output()).toContain(`listening on ${running.base}`);
    expect(running.example.output()).toContain('engine: embedded');
  });

  it('serves an empty collection, then the document a POST created', async () => {
    const { base } = running;
    expect(await (await fetch(`${base}/posts`)).json()).toEqual([]);

    const created = await fetch(`${base}/posts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Hello', views: 12 }),
    });
    expect(created.status).toBe(201);
    const post = (await created.json()) as { _id: string };
    expect(created.headers.get('location')).toBe(`${base}/posts/${post._id}`);

    const listed = await (await fetch(`${base}/posts?views:gt=10`)).json();
    expect(listed).toEqual([post]);
  });
}

/** Declares the case every adapter answers alike: an unknown parameter gives a problem document. */
export function itAnswersBadInputWithAProblem(running: RunningExample): void {
  it('answers bad input with a problem, like every adapter', async () => {
    const reply = await fetch(`${running.base}/posts?$where=1`);
    expect(reply.status).toBe(400);
    expect(reply.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(((await reply.json()) as { code: string }).code).toBe('unknown_parameter');
  });
}
