import { describeConformance } from '../../core/test/http/suite';
import { serveFetch } from './serve';

describeConformance('fetch adapter (on node:http through a Request/Response bridge)', serveFetch);
