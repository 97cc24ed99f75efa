// Loads each built package through its `exports` map with CommonJS `require`.
const expected = require('./expected-exports.json');

const missing = [];
for (const [name, exports] of Object.entries(expected)) {
  const mod = require(name);
  for (const key of exports) if (mod[key] === undefined) missing.push(`${name}#${key}`);
}
if (missing.length > 0) throw new Error(`missing CJS exports: ${missing.join(', ')}`);
console.log(`cjs ok: ${Object.keys(expected).join(' ')}`);
