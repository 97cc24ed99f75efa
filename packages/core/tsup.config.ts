import { packageBuild } from '../../tsup.base';

// `shims`: the CommonJS build reads `import.meta.url` (config/body-schema.ts loads Ajv by `require`).
export default { ...packageBuild(), shims: true };
