import { describeConformance } from '@store/test-kit';
import { serveKoa } from './serve';

describeConformance('Koa (koa-mount around the middleware)', serveKoa('middleware'));
describeConformance('Koa (store at the root of a sub-app mounted with koa-mount)', serveKoa('sub-app'));
