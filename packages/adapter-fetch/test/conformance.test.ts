import { describeConformance } from '@store/test-kit';
import { serveFetch } from './serve';

// The only adapter that also runs the suite through the MongoDB driver (majors 6 and 7) over
// the wire front: the storage path is the same behind every adapter.
describeConformance('fetch adapter (on node:http through a Request/Response bridge)', serveFetch, {
  driverTiers: true,
});
