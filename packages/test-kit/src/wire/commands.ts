/**
 * The commands the wire front answers, one table (name -> handler), and their dispatch: a
 * command is named by its first field; an unknown one is CommandNotFound (59).
 */
import type { Document } from '@store/common';
import type { CommandContext, CommandHandler } from './command-context';
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
  ...WRITE_COMMANDS,
  ...FIND_AND_MODIFY_COMMANDS,
  ...INDEX_COMMANDS,
  ...NAMESPACE_COMMANDS,
};

const COMMAND_NOT_FOUND = 59;

/** The name of `command`: its first field. */
export const commandName = (command: Document): string => Object.keys(command)[0] ?? '';

/** Runs `command`; its reply with `ok: 1`, or the handler's error thrown. */
export async function runCommand(command: Document, context: CommandContext): Promise<Document> {
  const name = commandName(command);
  const handler = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!handler) throw new CommandError(COMMAND_NOT_FOUND, `no such command: '${name}'`);
  return { ...(await handler(command, context)), ok: 1 };
}
