/**
 * Who holds a data directory's lock, and whether that holder is gone. A lock names its holder
 * by pid, host name, boot id, pid namespace, process start time and a random token: a pid alone
 * is trusted only within one boot and one pid namespace (see lock.ts for the rules).
 */
import { randomUUID } from 'node:crypto';
import { readFileSync, readlinkSync } from 'node:fs';
import { hostname, uptime } from 'node:os';

/** Who holds a lock: what `LOCK` holds (one line of JSON). */
export interface Holder {
  pid: number;
  host: string;
  boot: string;
  pidns: string;
  start: string;
  token: string;
}

/** The text of `path`, trimmed, or undefined if it cannot be read (gone, or no descriptor left). */
export function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8').trim();
  } catch {
    return undefined;
  }
}

/** The start time of process `pid` (clock ticks since boot, from /proc), where known. */
function startOf(pid: number): string {
  const stat = readText(`/proc/${pid}/stat`);
  // The command name (field 2) may hold spaces: count the fields after its closing parenthesis.
  return stat?.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? '';
}

function bootId(): string {
  // Without /proc: the boot time to the minute (the clock and uptime agree to well within it).
  return readText('/proc/sys/kernel/random/boot_id') ?? `~${Math.round((Date.now() / 1000 - uptime()) / 60)}`;
}

function pidNamespace(): string {
  try {
    return readlinkSync('/proc/self/ns/pid');
  } catch {
    return '';
  }
}

export function ourselves(): Holder {
  return {
    pid: process.pid,
    host: hostname(),
    boot: bootId(),
    pidns: pidNamespace(),
    start: startOf(process.pid) || String(Math.round(Date.now() - process.uptime() * 1000)),
    token: randomUUID(),
  };
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The holder named by a lock's text; an earlier version wrote the bare pid. */
export function parseHolder(text: string): Partial<Holder> | undefined {
  if (/^\d+$/.test(text)) return { pid: Number(text) };
  try {
    const value = JSON.parse(text) as Partial<Holder>;
    return typeof value === 'object' && value !== null && typeof value.token === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}

export type Verdict =
  | { stale: true; why: string }
  | { stale: false; who: string }
  | { stale: 'unknown'; who: string };

function describe(holder: Partial<Holder> | undefined): string {
  if (holder?.pid === undefined) return 'another process';
  return holder.host ? `process ${holder.pid} on ${holder.host}` : `process ${holder.pid}`;
}

/** Whether `holder` is gone, judged without waiting. */
export function judge(holder: Partial<Holder> | undefined, me: Holder): Verdict {
  const who = describe(holder);
  if (holder?.pid !== undefined && holder.token === undefined) {
    // A bare pid (an earlier version): trusted only as far as it goes.
    if (holder.pid === me.pid) return { stale: true, why: 'it names our own pid' };
    return isRunning(holder.pid)
      ? { stale: false, who }
      : { stale: true, why: `process ${holder.pid} is gone` };
  }
  if (!holder?.token) return { stale: 'unknown', who };
  if (holder.host === me.host && holder.boot === me.boot && holder.pidns === me.pidns) {
    const pid = holder.pid as number;
    if (pid === me.pid) return { stale: true, why: 'it names our own pid, from an earlier run' };
    if (!isRunning(pid)) return { stale: true, why: `process ${pid} is gone` };
    const start = startOf(pid);
    if (start && holder.start && start !== holder.start) {
      return { stale: true, why: `pid ${pid} now belongs to another process` };
    }
    return { stale: false, who };
  }
  if (holder.host === me.host && holder.boot !== me.boot) {
    return { stale: true, why: 'it was taken before this machine restarted' };
  }
  return { stale: 'unknown', who };
}
