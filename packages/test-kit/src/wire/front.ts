/**
 * A MongoDB wire-protocol front over the embedded engine, for tests: the official driver
 * connects to it as to a standalone server. Each database name is its own embedded database;
 * commands that write run one at a time, across connections (each is atomic, as on a server),
 * while reads run beside them as the engine's slices allow (a long scan does not hold up a
 * lookup by id, as on a server); the `failCommand` fail point can delay, fail or cut any of
 * them.
 */
import { createServer, type Server, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Document } from '@store/common';
import type { CommandContext, WireConnection } from './command-context';
import { commandName, runCommand } from './commands';
import { Cursors } from './cursors';
import { WireDatabases } from './databases';
import { CommandError, errorReply } from './errors';
import { FailPoints, failReply } from './fail-points';
import { encodeReply, MessageReader, parseMessage, type WireRequest } from './protocol';

/** Where the front listens. */
export interface WireFrontOptions {
  /** @default 0 (a free port) */
  port?: number;
  /** @default '127.0.0.1' */
  host?: string;
}

/** A running front. */
export interface WireFront {
  /** `mongodb://<host>:<port>/?directConnection=true` */
  readonly uri: string;
  readonly port: number;
  /** Stops listening, closes every connection and drops every database. */
  close(): Promise<void>;
}

interface FrontState {
  readonly databases: WireDatabases;
  readonly cursors: Cursors;
  readonly failPoints: FailPoints;
  /** The tail of the queue every command that writes runs in. */
  queue: Promise<unknown>;
}

/**
 * Commands that only read (or only touch a cursor): they need not wait for the writes queued
 * before them on other connections, nor hold up the writes after them.
 */
const READS = new Set([
  'find',
  'getMore',
  'killCursors',
  'count',
  'distinct',
  'aggregate',
  'listCollections',
  'listIndexes',
]);

/** Runs `task` after every command queued before it. */
function enqueue<T>(state: FrontState, task: () => Promise<T>): Promise<T> {
  const result = state.queue.then(task);
  state.queue = result.catch(() => undefined);
  return result;
}

async function execute(
  state: FrontState,
  request: WireRequest,
  connection: WireConnection,
): Promise<Document> {
  try {
    const db = state.databases.get(request.command.$db ?? 'admin');
    const context: CommandContext = { ...state, db, connection };
    const run = () => runCommand(request.command, context);
    return await (READS.has(commandName(request.command)) ? run() : enqueue(state, run));
  } catch (error) {
    return errorReply(error);
  }
}

/** Answers one request on `socket` (or closes it, when a fail point says so). */
async function answer(state: FrontState, socket: Socket, request: WireRequest, connection: WireConnection) {
  const action = state.failPoints.trigger(commandName(request.command), connection.appName);
  if (action && action.blockTimeMS > 0) await sleep(action.blockTimeMS);
  if (action?.closeConnection) {
    socket.destroy();
    return;
  }
  const reply = (action && failReply(action)) ?? (await execute(state, request, connection));
  if (action?.writeConcernError && reply.ok === 1) reply.writeConcernError = action.writeConcernError;
  if (!request.noReply && !socket.destroyed) socket.write(encoded(request, reply));
}

/** The reply's bytes; a reply BSON cannot hold (past 16 MiB, say) is answered as an error. */
function encoded(request: WireRequest, reply: Document): Buffer {
  try {
    return encodeReply(request, reply);
  } catch (error) {
    return encodeReply(request, errorReply(new CommandError(1, `reply not serializable: ${String(error)}`)));
  }
}

function serve(state: FrontState, socket: Socket, connection: WireConnection): void {
  const reader = new MessageReader();
  let chain: Promise<void> = Promise.resolve();
  socket.setNoDelay(true);
  socket.on('error', () => socket.destroy());
  socket.on('data', (chunk) => {
    try {
      for (const message of reader.push(chunk)) {
        const request = parseMessage(message);
        chain = chain
          .then(() => answer(state, socket, request, connection))
          .catch(() => {
            socket.destroy();
          });
      }
    } catch {
      socket.destroy();
    }
  });
}

const listen = (server: Server, port: number, host: string) =>
  new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const address = server.address();
      resolve(typeof address === 'object' && address ? address.port : port);
    });
  });

/** Starts a front on `host`:`port` (a free port by default). */
export async function startWireFront(options: WireFrontOptions = {}): Promise<WireFront> {
  const host = options.host ?? '127.0.0.1';
  const state: FrontState = {
    databases: new WireDatabases(),
    cursors: new Cursors(),
    failPoints: new FailPoints(),
    queue: Promise.resolve(),
  };
  const sockets = new Set<Socket>();
  let connections = 0;
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    connections += 1;
    serve(state, socket, { id: connections });
  });
  const port = await listen(server, options.port ?? 0, host);
  return {
    uri: `mongodb://${host}:${port}/?directConnection=true`,
    port,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of sockets) socket.destroy();
      await closed;
      await state.databases.closeAll();
    },
  };
}
