#!/usr/bin/env node
/** The `store` binary: {@link runCli} over this process's arguments, streams and signals. */
import { version } from '../package.json';
import { runCli } from './run';

const stopped = new Promise<string>((resolve) => {
  process.once('SIGINT', () => resolve('SIGINT'));
  process.once('SIGTERM', () => resolve('SIGTERM'));
});
const io = {
  out: (line: string) => console.log(line),
  err: (line: string) => console.error(line),
  write: (text: string) => process.stdout.write(text),
  stopped,
  progress: process.stderr,
};
runCli(process.argv.slice(2), io, process.env, version).then((code) => process.exit(code));
