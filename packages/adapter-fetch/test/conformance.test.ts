import { describeConformance } from '@store/test-kit';
import { serveFetch } from './serve';

describeConformance('fetch adapter (on node:http through a Request/Response bridge)', serveFetch);
