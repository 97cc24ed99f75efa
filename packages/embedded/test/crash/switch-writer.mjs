// A child process for the switch crash test: four workers overwrite one document each, again
// and again, with records from 1 KiB to 64 KiB, on a durable embedded database that switches
// to a new journal every few records (the threshold is the snapshot's size: four documents),
// until it is killed. Its file system writes at most 2 KiB per call, pausing 0.1 ms before
// each, so that a kill soon after a switch lands inside a record. Usage:
// node switch-writer.mjs <dir> <run>. Prints, synchronously, `try <id> <v>` before each write,
// `ack <id> <v>` once it resolved, and `switch <n> <file>` when the n-th new journal is opened. Nothing
// else on stdout.
import { writeSync } from 'node:fs';
import { createEmbeddedDb, nodeFileSystem } from '@store/embedded';

const [dir, run] = process.argv.slice(2);
const say = (line) => writeSync(1, `${line}\n`);
const pause = new Int32Array(new SharedArrayBuffer(4));
let started = false;
let switches = 0;
const fileSystem = {
  ...nodeFileSystem,
  open(path, flags) {
    const fd = nodeFileSystem.open(path, flags);
    if (started && /journal-\d+\.log$/.test(path)) say(`switch ${++switches} ${path}`);
    return fd;
  },
  write(fd, bytes, offset, length) {
    Atomics.wait(pause, 0, 0, 0.1);
    return nodeFileSystem.write(fd, bytes, offset, Math.min(length, 2_048));
  },
};
const db = createEmbeddedDb({ dir, compactAfterBytes: 1, warn: () => undefined, fileSystem });
started = true;
const docs = db.collection('docs');

async function worker(w) {
  for (let n = 0; ; n++) {
    const v = Number(run) * 1_000_000 + n;
    const size = 1_024 * 2 ** Math.floor(Math.random() * 7);
    say(`try w${w} ${v}`);
    await docs.findOneAndReplace(
      { _id: `w${w}` },
      { v, pad: 'x'.repeat(size) },
      { upsert: true, returnDocument: 'after' },
    );
    say(`ack w${w} ${v}`);
  }
}

for (let w = 0; w < 4; w++) worker(w);
