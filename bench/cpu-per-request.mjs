// node bench/cpu-per-request.mjs <case> [contender,contender,...] [rounds]
//   e.g. node bench/cpu-per-request.mjs get-by-id store,baseline,storeCli,limit 4
//        node bench/cpu-per-request.mjs create-subscribed store,reference 4
//
// CPU time each contender's server process spends per request (user + system, from
// /proc/<pid>/stat) under the same autocannon load as `pnpm bench`, rounds alternating. Less
// sensitive than requests/s to the load generator sharing the machine's 2 cores, and it splits a
// ratio into microseconds: run it with `PROF=<dir>` for one V8 CPU profile per contender, then
// divide each function's time by the request counts printed. Linux only; needs built packages.
import { readFileSync } from 'node:fs';
import { buildCases } from './lib/cases.mjs';
import { load, spawnContender } from './lib/measure.mjs';
import { holdIdleStreams } from './lib/subscribers.mjs';

const [name = 'get-by-id', contenders = 'store,baseline', roundsArg = '3'] = process.argv.slice(2);
const who = contenders.split(',');
const rounds = Number(roundsArg);
const benchCase = buildCases().find((each) => each.name === name);
if (benchCase === undefined) throw new Error(`no case ${name}`);

/** CPU microseconds a process has used (utime + stime, in clock ticks of 10 ms). */
function cpuMicros(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

// A case with streams (`create-subscribed`) holds them on `store`, once it served the case's
// own requests (as `run.mjs` does); its `reference` is a second store, without any.
const servers = {};
for (const contender of who) {
  const serving = contender === 'reference' ? 'store' : contender;
  const options = {
    contender: serving,
    dataset: benchCase.dataset,
    engine: 'embedded',
    profileDir: process.env.PROF,
  };
  servers[contender] = await spawnContender(options);
}
if (benchCase.subscribers) await load(servers.store.port, benchCase.store, 2);
const streams = benchCase.subscribers
  ? await holdIdleStreams(servers.store.port, benchCase.subscribers)
  : undefined;
for (const contender of who) await load(servers[contender].port, benchCase[contender], 2);
const totals = Object.fromEntries(who.map((contender) => [contender, { requests: 0, cpu: 0 }]));
for (let round = 0; round < rounds; round++) {
  for (const contender of round % 2 === 0 ? who : [...who].reverse()) {
    const { pid, port } = servers[contender];
    const before = cpuMicros(pid);
    const run = await load(port, benchCase[contender], 2);
    totals[contender].requests += run.requests;
    totals[contender].cpu += cpuMicros(pid) - before;
  }
}
for (const contender of who) {
  const { requests, cpu } = totals[contender];
  console.log(
    `${name} ${contender}: ${requests} requests, ${(cpu / requests).toFixed(1)} µs CPU per request`,
  );
}
await streams?.stop();
for (const contender of who) await servers[contender].stop();
