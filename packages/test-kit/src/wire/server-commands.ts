/**
 * Commands about the server rather than the data: the handshake (`hello` / `isMaster`, answered
 * as a standalone server of wire version 21, MongoDB 7.0), `ping`, `buildInfo`,
 * `getParameter`, `endSessions` and `configureFailPoint`.
 */
import type { Document } from '@store/common';
import type { CommandHandler } from './command-context';

const VERSION = '7.0.0';

const hello: CommandHandler = (command, { connection }) => {
  const client = command.client as { application?: { name?: unknown } } | undefined;
  const appName = client?.application?.name;
  if (typeof appName === 'string') connection.appName = appName;
  return {
    helloOk: true,
    ismaster: true,
    isWritablePrimary: true,
    maxBsonObjectSize: 16_777_216,
    maxMessageSizeBytes: 48_000_000,
    maxWriteBatchSize: 100_000,
    localTime: new Date(),
    logicalSessionTimeoutMinutes: 30,
    connectionId: connection.id,
    minWireVersion: 0,
    maxWireVersion: 21,
    readOnly: false,
  };
};

const buildInfo: CommandHandler = () => ({
  version: VERSION,
  gitVersion: 'wire-front',
  versionArray: [7, 0, 0, 0],
  bits: 64,
  maxBsonObjectSize: 16_777_216,
  modules: [],
  storageEngines: ['embedded'],
});

/** Only `featureCompatibilityVersion` has a value; other parameters are answered as absent. */
const getParameter: CommandHandler = (command) => {
  const reply: Document = {};
  if (command.featureCompatibilityVersion !== undefined || command.getParameter === '*') {
    reply.featureCompatibilityVersion = { version: '7.0' };
  }
  return reply;
};

const nothing: CommandHandler = () => ({});

export const SERVER_COMMANDS = {
  hello,
  isMaster: hello,
  ismaster: hello,
  ping: nothing,
  buildInfo,
  buildinfo: buildInfo,
  getParameter,
  endSessions: nothing,
  configureFailPoint: (command, { failPoints }) => failPoints.configure(command),
} satisfies Record<string, CommandHandler>;
