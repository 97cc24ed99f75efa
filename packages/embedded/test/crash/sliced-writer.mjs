// A child process for the sliced-write crash test: seeds a durable embedded database, then runs
// updateMany over every seeded document, round after round, while a second worker inserts
// documents one at a time, until it is killed. Usage: node sliced-writer.mjs <dir> <count>.
// Prints, synchronously: `ready` once the seed is on disk; `try round <r>` / `ack round <r>`
// around each updateMany (each round adds 1 to `v` and to `w` of every seeded document);
// `try <id>` / `ack <id>` around each insert. Nothing else is printed on stdout.
import { writeSync } from 'node:fs';
import { createEmbeddedDb } from '@store/embedded';

const [dir, count] = process.argv.slice(2);
const db = createEmbeddedDb({ dir, compactAfterBytes: 65_536, warn: () => undefined });
const docs = db.collection('docs');
const say = (line) => writeSync(1, `${line}\n`);

await docs.insertMany(
  Array.from({ length: Number(count) }, (_, i) => ({ _id: `s${i}`, v: 0, w: 0, pad: 'x'.repeat(40) })),
);
say('ready');

(async () => {
  for (let n = 0; ; n++) {
    say(`try i${n}`);
    await docs.insertOne({ _id: `i${n}`, v: -1 });
    say(`ack i${n}`);
  }
})();

for (let round = 1; ; round++) {
  say(`try round ${round}`);
  await docs.updateMany({ w: { $gte: 0 } }, { $inc: { v: 1, w: 1 } });
  say(`ack round ${round}`);
}
