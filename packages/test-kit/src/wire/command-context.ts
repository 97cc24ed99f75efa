/** What a command handler of the wire front is given (types only, shared by the handler files). */
import type { Document } from '@store/common';
import type { Cursors } from './cursors';
import type { WireDatabase, WireDatabases } from './databases';
import type { FailPoints } from './fail-points';

/** The connection a command came on. */
export interface WireConnection {
  readonly id: number;
  /** `client.application.name` from the connection's handshake. */
  appName?: string;
}

export interface CommandContext {
  /** The database named by the command's `$db`. */
  readonly db: WireDatabase;
  readonly databases: WireDatabases;
  readonly cursors: Cursors;
  readonly failPoints: FailPoints;
  readonly connection: WireConnection;
}

/** Answers one command (its reply without `ok`, which the front adds when absent). */
export type CommandHandler = (command: Document, context: CommandContext) => Document | Promise<Document>;
