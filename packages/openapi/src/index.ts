/**
 * `@store/openapi`: the store-wide plugin that serves a store's OpenAPI 3.1 description
 * (`GET /openapi.json`) and its Swagger UI reference page (`GET /docs`):
 * `createStore({ plugins: [openapi({ title: 'Notes API' })] })`.
 */
export type { OpenApiOptions } from './options';
export { openapi } from './plugin';
