import { packageBuild } from '../../tsup.base';

// `shims`: the CommonJS build reads `import.meta.url` (src/mingo.ts loads mingo by `require`).
export default { ...packageBuild(), shims: true };
