// A child process for the crash test: writes to a durable embedded database under load until it
// is killed. Usage: node writer.mjs <dir> <run>. Eight workers, each on its own ids, run one
// operation at a time and print, synchronously, `try <id> <state>` before an operation and
// `ack <id> <state>` once it resolved (state: a number, or `gone`). A group delete (one
// deleteMany) names its ids joined by commas. Nothing else is printed on stdout.
import { writeSync } from 'node:fs';
import { createEmbeddedDb } from '@store/embedded';

const [dir, run] = process.argv.slice(2);
const db = createEmbeddedDb({ dir, compactAfterBytes: 16_384, warn: () => undefined });
const docs = db.collection('docs');
const say = (line) => writeSync(1, `${line}\n`);

async function worker(w) {
  const live = [];
  for (let n = 0; ; n++) {
    const roll = Math.random();
    if (roll < 0.5 || live.length === 0) {
      const id = `${run}-${w}-${n}`;
      say(`try ${id} 0`);
      await docs.insertOne({ _id: id, v: 0, group: `${run}-${w}-${Math.floor(n / 5)}`, pad: 'x'.repeat(64) });
      say(`ack ${id} 0`);
      live.push(id);
    } else if (roll < 0.85) {
      const id = live[Math.floor(Math.random() * live.length)];
      const v = n;
      say(`try ${id} ${v}`);
      await docs.updateOne({ _id: id }, { $set: { v } });
      say(`ack ${id} ${v}`);
    } else if (roll < 0.95) {
      const id = live.splice(Math.floor(Math.random() * live.length), 1)[0];
      say(`try ${id} gone`);
      await docs.deleteOne({ _id: id });
      say(`ack ${id} gone`);
    } else {
      const group = (await docs.findOne({ _id: live[0] }))?.group;
      const members = (await docs.find({ group }).toArray()).map((doc) => doc._id);
      say(`try ${members.join(',')} gone`);
      await docs.deleteMany({ group });
      say(`ack ${members.join(',')} gone`);
      for (const id of members) live.splice(live.indexOf(id), 1);
    }
  }
}

for (let w = 0; w < 8; w++) worker(w);
