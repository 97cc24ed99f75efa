export { compileQuery } from './compile-query';
export { encodeCursor } from './cursor';
export { QUERY_ERROR_CODES, type QueryErrorCode } from './error-codes';
export { geoValueProblem } from './geo-value';
export { type ResolvedQueryOptions, resolveQueryOptions } from './options';
export { isQueryError, QueryError } from './query-error';
export { isValidResourceName, RESOURCE_NAME } from './resource-name';
export { QUERY_SYNTAX, type QuerySyntax } from './syntax';
export type { CompiledQuery, Document, Filter, Projection, QueryOptions, SortSpec } from './types';
