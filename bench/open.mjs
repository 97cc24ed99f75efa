// node --expose-gc bench/open.mjs [--docs=100000,1000000] [--rounds=5]   (1M: filling the directory takes minutes)
//
// Opening a data directory of N documents against `JSON.parse` of the same documents as one
// JSON file, against the BUILT packages (`pnpm build` first): wall time and CPU time of each,
// medians of alternating rounds, and their ratios beside the target (<= 2x). bench/durable.mjs
// prints the same rows. See lib/open-speed.mjs.
import { openSpeed, openSpeedLine } from './lib/open-speed.mjs';

const option = (name, fallback) =>
  process.argv.find((arg) => arg.startsWith(`--${name}=`))?.split('=')[1] ?? fallback;
const sizes = option('docs', '100000,1000000').split(',').map(Number);
const rounds = Number(option('rounds', '5'));

for (const documents of sizes) {
  const measured = await openSpeed(documents, documents >= 1_000_000 ? Math.min(rounds, 3) : rounds);
  console.log(openSpeedLine(measured));
}
