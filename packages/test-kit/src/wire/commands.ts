/**
 * The commands the wire front answers, one table (name -> handler), and their dispatch: a
 * command is named by its first field; an unknown one is CommandNotFound (59), one MongoDB has
 * that the front refuses whole (a transaction's commit) NotImplemented (238); a known one has
 * its fields checked (`check-command-fields.ts`) before its handler runs.
 */
import type { Document } from '@store/common';
import { AGGREGATE_COMMANDS } from './aggregate';
import { checkCommandFields } from './check-command-fields';
import type { CommandContext, CommandHandler } from './command-context';
import { REFUSED_COMMANDS } from './command-fields';
import { CommandError } from './errors';
import { FIND_AND_MODIFY_COMMANDS } from './find-and-modify';
import { INDEX_COMMANDS } from './index-commands';
import { NAMESPACE_COMMANDS } from './namespace-commands';
import { READ_COMMANDS } from './read-commands';
import { SERVER_COMMANDS } from './server-commands';
import { WRITE_COMMANDS } from './write-commands';

const COMMANDS: Readonly<Record<string, CommandHandler>> = {
  ...SERVER_COMMANDS,
  ...READ_COMMANDS,
  ...AGGREGATE_COMMANDS,
  ...WRITE_COMMANDS,
  ...FIND_AND_MODIFY_COMMANDS,
  ...INDEX_COMMANDS,
  ...NAMESPACE_COMMANDS,
};

const COMMAND_NOT_FOUND = 59;
const NOT_IMPLEMENTED = 238;

/** The names of the commands the front answers. */
export const commandNames = (): string[] => Object.keys(COMMANDS);

/** The name of `command`: its first field. */
export const commandName = (command: Document): string => Object.keys(command)[0] ?? '';

/** Runs `command`; its reply with `ok: 1`, or the handler's error thrown. */
export async function runCommand(command: Document, context: CommandContext): Promise<Document> {
  const name = commandName(command);
  const refused = Object.hasOwn(REFUSED_COMMANDS, name) ? REFUSED_COMMANDS[name] : undefined;
  if (refused !== undefined) throw new CommandError(NOT_IMPLEMENTED, refused);
  const handler = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!handler) throw new CommandError(COMMAND_NOT_FOUND, `no such command: '${name}'`);
  checkCommandFields(name, command);
  return { ...(await handler(command, context)), ok: 1 };
}
