// Loaded into every server process of bench/scale.mjs, before the server's own code: into the
// `store` binary by `node --expose-gc --import <this file>`, into scale-server.mjs (json-server)
// by an import. Over the IPC channel of `fork`, `'memory'` answers `{ memory }`
// (`process.memoryUsage()` after full garbage collections, when `--expose-gc` made `gc` a
// global; as it is otherwise), and the process ends when its parent goes away, so a crashed run
// leaves no server of a million documents behind.

/** Full collections until the heap stops shrinking (at most five), then the process's memory. */
async function collected() {
  if (typeof globalThis.gc !== 'function') return process.memoryUsage();
  let heapUsed = Number.POSITIVE_INFINITY;
  for (let i = 0; i < 5; i++) {
    globalThis.gc();
    // Lets finished sockets and timers run their last callbacks between collections.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const now = process.memoryUsage().heapUsed;
    if (now >= heapUsed * 0.999) break;
    heapUsed = now;
  }
  return process.memoryUsage();
}

if (process.send) {
  process.on('message', (message) => {
    if (message === 'memory') collected().then((memory) => process.send({ memory }));
  });
  process.on('disconnect', () => process.exit(0));
}
