import { packageBuild } from '../../tsup.base';

export default { ...packageBuild(['src/index.ts']), entry: ['src/index.ts', 'src/bin.ts'] };
