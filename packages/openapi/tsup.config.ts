import { packageBuild } from '../../tsup.base';

// `shims`: the CommonJS build gets `import.meta.url` (docs-assets.ts resolves Swagger UI's files with it).
export default { ...packageBuild(), shims: true };
