import { listenServed, type Serve } from '@store/test-kit';
import type express from 'express';
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
    return listenServed(app, prefix, store);
  };
}
