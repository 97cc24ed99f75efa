// Loaded into every server process of bench/scale.mjs, before the server's own code: into the
// `store` binary by `node --expose-gc --import <this file>`, into scale-server.mjs (json-server)
// by an import. Over the IPC channel of `fork`, `'memory'` answers `{ memory }`
// (`process.memoryUsage()` after full garbage collections, when `--expose-gc` made `gc` a
// global; as it is otherwise), and the process ends when its parent goes away, so a crashed run
// leaves no server of a million documents behind.
import { collectedMemory } from './collected-memory.mjs';

if (process.send) {
  process.on('message', (message) => {
    if (message === 'memory') collectedMemory().then((memory) => process.send({ memory }));
  });
  process.on('disconnect', () => process.exit(0));
}
