// A child process for the lock tests: node lock-child.mjs <dir> [hold|leave]. Prints `ready`
// once loaded, then waits for a line `go <ms>` on stdin and (busy) for that instant, so that
// several children open together; opens the directory and prints one line: `opened`,
// `refused <message>` (an EmbeddedDataError) or `error <stack>` (anything else). `hold` keeps it
// open until stdin ends; `leave` returns without closing (the lock's heartbeat must not keep
// the process alive).
import { createEmbeddedDb } from '@store/embedded';

const [dir, mode = 'hold'] = process.argv.slice(2);

function openAt(startAt) {
  while (Date.now() < startAt) {
    // Busy until the agreed instant.
  }
  try {
    const db = createEmbeddedDb({ dir, warn: () => undefined });
    process.stdout.write('opened\n');
    return db;
  } catch (error) {
    process.stdout.write(
      error.name === 'EmbeddedDataError' ? `refused ${error.message}\n` : `error ${error.stack}\n`,
    );
    return undefined;
  }
}

let input = '';
let db;
const onData = (chunk) => {
  input += chunk;
  const match = /^go (\d+)\n/.exec(input);
  if (!match) return;
  process.stdin.off('data', onData);
  db = openAt(Number(match[1]));
  if (mode === 'leave') process.stdin.destroy();
};
process.stdin.setEncoding('utf8');
process.stdin.on('data', onData);
process.stdin.on('end', () => (db ? db.close() : Promise.resolve()).then(() => process.exit(0)));
process.stdout.write('ready\n');
