/**
 * The `failCommand` fail point, as a MongoDB server run with test commands enabled implements
 * it: `configureFailPoint` with `mode` (`'alwaysOn'`, `'off'`, `{ times: n }`, `{ skip: n }`) and
 * `data` (`failCommands`, `errorCode`, `closeConnection`, `blockConnection` + `blockTimeMS`,
 * `errorLabels`, `writeConcernError`, `appName`). A matching command is delayed, answered with
 * the error, or has its connection closed.
 */
import type { Document } from '@store/common';
import { CommandError, codeNameOf } from './errors';

/** What to do to one command the fail point caught. */
export interface FailAction {
  blockTimeMS: number;
  closeConnection: boolean;
  errorCode?: number;
  errorLabels?: unknown[];
  writeConcernError?: Document;
}

interface FailCommand {
  commands: ReadonlySet<string>;
  /** Remaining triggers (Infinity when alwaysOn). */
  times: number;
  skip: number;
  appName?: string;
  action: FailAction;
}

const isDocument = (value: unknown): value is Document =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function parseMode(mode: unknown): { times: number; skip: number } | 'off' {
  if (mode === 'off') return 'off';
  if (mode === 'alwaysOn') return { times: Number.POSITIVE_INFINITY, skip: 0 };
  if (isDocument(mode) && typeof mode.times === 'number') return { times: mode.times, skip: 0 };
  if (isDocument(mode) && typeof mode.skip === 'number') {
    return { times: Number.POSITIVE_INFINITY, skip: mode.skip };
  }
  throw new CommandError(2, "mode must be 'alwaysOn', 'off', { times: n } or { skip: n }");
}

function parseData(data: unknown): Omit<FailCommand, 'times' | 'skip'> {
  if (!isDocument(data) || !Array.isArray(data.failCommands)) {
    throw new CommandError(2, 'failCommand needs data.failCommands, a list of command names');
  }
  const action: FailAction = {
    blockTimeMS: data.blockConnection === true ? Number(data.blockTimeMS ?? 0) : 0,
    closeConnection: data.closeConnection === true,
  };
  if (typeof data.errorCode === 'number') action.errorCode = data.errorCode;
  if (Array.isArray(data.errorLabels)) action.errorLabels = data.errorLabels;
  if (isDocument(data.writeConcernError)) action.writeConcernError = data.writeConcernError;
  const appName = typeof data.appName === 'string' ? data.appName : undefined;
  return { commands: new Set(data.failCommands.map(String)), appName, action };
}

/** The fail points of one front. */
export class FailPoints {
  #failCommand: FailCommand | undefined;

  /** `configureFailPoint`: only `failCommand` is known. */
  configure(command: Document): Document {
    if (command.configureFailPoint !== 'failCommand') {
      throw new CommandError(2, `unknown fail point: ${String(command.configureFailPoint)}`);
    }
    const previous = this.#failCommand?.times ?? 0;
    const mode = parseMode(command.mode);
    this.#failCommand = mode === 'off' ? undefined : { ...mode, ...parseData(command.data) };
    return { count: Number.isFinite(previous) ? previous : 0, ok: 1 };
  }

  /** The action for `commandName` on a connection of `appName`, counting it as triggered. */
  trigger(commandName: string, appName: string | undefined): FailAction | undefined {
    const point = this.#failCommand;
    if (!point?.commands.has(commandName)) return undefined;
    if (point.appName !== undefined && point.appName !== appName) return undefined;
    if (point.skip > 0) {
      point.skip -= 1;
      return undefined;
    }
    point.times -= 1;
    if (point.times <= 0) this.#failCommand = undefined;
    return point.action;
  }
}

/** The error reply a fail point's `errorCode` makes, if it has one. */
export function failReply(action: FailAction): Document | undefined {
  if (action.errorCode === undefined) return undefined;
  const reply: Document = {
    ok: 0,
    code: action.errorCode,
    codeName: codeNameOf(action.errorCode),
    errmsg: "Failing command via 'failCommand' failpoint",
  };
  if (action.errorLabels) reply.errorLabels = action.errorLabels;
  return reply;
}
