import { fileURLToPath } from 'node:url';
import { describeExampleSmoke, itAnswersBadInputWithAProblem } from '../../test-support/describe-example';

const serverFile = fileURLToPath(new URL('../src/server.js', import.meta.url));

describeExampleSmoke('Koa example', serverFile, itAnswersBadInputWithAProblem);
