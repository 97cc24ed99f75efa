import type { IncomingMessage, RequestListener } from 'node:http';
import { listenServed, type Serve } from '@store/test-kit';
import { createStore } from '../src/index';
import { toRequest, writeResponse } from './node-bridge';

const PASSED_ON = () => Response.json({ fallthrough: true }, { status: 404 });

/**
 * A conformance-suite server: the fetch handler at `basePath` = the suite's prefix, with
 * `fallthrough: true` so passed-on requests reach the host's final 404, and the socket's
 * address as client IP. With `bodyParser`, the host buffers each body before the store
 * sees it (a fetch host has no body parser to put in front).
 */
export const serveFetch: Serve = async (config, { prefix = '/api', bodyParser = false } = {}) => {
  // A fetch Request has no socket: the host passes its own request as the context.
  const getClientIp = (_request: Request, req: IncomingMessage | undefined) => req?.socket.remoteAddress;
  const store = createStore(config, { basePath: prefix, fallthrough: true, getClientIp });
  await store.ready;
  const handler: RequestListener = (req, res) => {
    toRequest(req, bodyParser)
      .then(async (request) => (await store(request, req)) ?? PASSED_ON())
      .then((response) => writeResponse(response, res, req.method === 'HEAD'))
      .catch((error: unknown) => {
        res.statusCode = 500;
        res.end(String(error));
      });
  };
  return listenServed(handler, prefix, store);
};
