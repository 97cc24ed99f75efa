import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import type express from 'express';
import type { Serve } from '../../core/test/http/suite';
import { createStore } from '../src/index';

/** A conformance-suite server on Express (`express` or the `express4` alias). */
export function serveWith(framework: typeof express): Serve {
  return async (config, { prefix = '/api', bodyParser = false } = {}) => {
    const app = framework();
    if (bodyParser) app.use(framework.json());
    const store = createStore(config);
    await store.ready;
    if (prefix) app.use(prefix, store);
    else app.use(store);
    app.use((_req: express.Request, res: express.Response) => {
      res.status(404).json({ fallthrough: true });
    });
    const server = app.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as AddressInfo;
    return {
      url: `http://127.0.0.1:${port}${prefix}`,
      async close() {
        server.closeAllConnections();
        await new Promise((resolve) => server.close(resolve));
        await store.close();
      },
    };
  };
}
