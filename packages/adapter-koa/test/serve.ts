import { bodyParser } from '@koa/bodyparser';
import { listenServed, type Serve } from '@store/test-kit';
import Koa from 'koa';
import mount from 'koa-mount';
import { createStore, type StoreMiddleware } from '../src/index';

/**
 * How the store reaches its prefix: `koa-mount` around the middleware itself, or around a
 * Koa sub-application that has the store at its root.
 */
export type Mounting = 'middleware' | 'sub-app';

const MOUNT: Record<Mounting, (prefix: string, store: StoreMiddleware) => Koa.Middleware> = {
  middleware: (prefix, store) => mount(prefix, store),
  'sub-app': (prefix, store) => {
    const sub = new Koa();
    sub.use(store);
    return mount(prefix, sub);
  },
};

/**
 * `@koa/bodyparser` answers 400 text/plain itself for JSON it refuses (a `__proto__` key);
 * keeping the raw text instead lets the store judge it and answer problem JSON, as with
 * every other body (the recipe docs/adapters.md gives).
 */
function keepRawBody(error: Error, ctx: Koa.Context): void {
  const { body } = error as Error & { body?: unknown };
  if (typeof body !== 'string') throw error;
  ctx.request.rawBody = body;
}

/** A conformance-suite server on Koa, the store mounted at the suite's prefix as `mounting` says. */
export function serveKoa(mounting: Mounting): Serve {
  return async (config, { prefix = '/api', bodyParser: withParser = false } = {}) => {
    const app = new Koa();
    if (withParser) app.use(bodyParser({ onError: keepRawBody }));
    const store = createStore(config);
    await store.ready;
    app.use(prefix ? MOUNT[mounting](prefix, store) : store);
    app.use((ctx) => {
      ctx.status = 404;
      ctx.body = { fallthrough: true };
    });
    return listenServed(app.callback(), prefix, store);
  };
}
