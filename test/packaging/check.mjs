// Imports each built package through its `exports` map with ESM `import`.
import { readFileSync } from 'node:fs';

const expected = JSON.parse(readFileSync(new URL('./expected-exports.json', import.meta.url), 'utf8'));
const missing = [];
for (const [name, exports] of Object.entries(expected)) {
  const mod = await import(name);
  for (const key of exports) if (mod[key] === undefined) missing.push(`${name}#${key}`);
}
if (missing.length > 0) throw new Error(`missing ESM exports: ${missing.join(', ')}`);
console.log(`esm ok: ${Object.keys(expected).join(' ')}`);
