/**
 * One operation of a resource's paths in the OpenAPI description: the parts every operation
 * shares (tag, `operationId`, the access rule's `security` and refusals, the error responses).
 */
import type { DescribedAccess, Operation, StoreDescription } from '@store/core';
import { parameterRef } from './http-components';
import type { JsonObject } from './json-object';
import { describeRule } from './operation-security';
import { type ProblemStatus, problemResponses } from './problem-responses';
import { type ParameterUse, parameterKey, type QueryParameterRow } from './query-parameters';
import type { IdKey } from './resource-schemas';

/** What the operations of one resource (or of every undeclared one) are described from. */
export interface ResourcePaths {
  /** The path segment, and the stem of operation ids: the name, or `{resource}` for undeclared resources. */
  readonly segment: string;
  /** The tag grouping its operations. */
  readonly tag: string;
  readonly access: DescribedAccess;
  /** Names of the session security schemes. */
  readonly schemes: readonly string[];
  /** `$ref`s of the body and answer schemas. */
  readonly input: string;
  readonly document: string;
  /** `$ref` of the body of a `PATCH` (`application/json`). */
  readonly patch: string;
  /** The primary key's name on the wire (`wireId`). */
  readonly idKey: IdKey;
  /** Whether `DELETE` of one document answers 200 with it (any foreign dialect on), else 204. */
  readonly deleteAnswersDocument: boolean;
  readonly rows: readonly QueryParameterRow[];
  readonly maxBulk: number;
  /** Whether (and how) `GET` of the collection also answers change events. */
  readonly realtime: StoreDescription['realtime'];
}

/** What one operation says beyond the shared parts. */
export interface OperationSpec {
  readonly verb: string;
  readonly summary: string;
  readonly description: string;
  readonly uses: ParameterUse;
  /** Header parameters, by component name. */
  readonly headers?: readonly string[];
  readonly requestBody?: JsonObject;
  readonly responses: JsonObject;
  /** Errors the operation answers whatever its rule. */
  readonly errors: readonly ProblemStatus[];
}

/** The query parameters of `use`, as references to their components. */
function queryParameters(rows: readonly QueryParameterRow[], use: ParameterUse): JsonObject[] {
  return rows.filter((row) => row.on.includes(use)).map((row) => parameterRef(`query.${parameterKey(row)}`));
}

/** The operation object of `spec` under the rule of `operation`; `undefined` when the rule is `none`. */
export function resourceOperation(
  paths: ResourcePaths,
  operation: Operation,
  spec: OperationSpec,
): JsonObject | undefined {
  const rule = describeRule(paths.access[operation], paths.schemes);
  if (rule === undefined) return undefined;
  const statuses = [...new Set([...spec.errors, ...rule.refusals])].sort((a, b) => a - b);
  const headers = (spec.headers ?? []).map(parameterRef);
  return {
    tags: [paths.tag],
    operationId: `${spec.verb}_${paths.segment}`,
    summary: spec.summary,
    description: `${spec.description}\n\n${rule.who}`,
    ...(rule.security === undefined ? {} : { security: rule.security }),
    parameters: [...headers, ...queryParameters(paths.rows, spec.uses)],
    ...(spec.requestBody === undefined ? {} : { requestBody: spec.requestBody }),
    responses: { ...spec.responses, ...problemResponses(statuses) },
  };
}

/** A path item of the operations that exist (a rule `none` leaves one out); `undefined` without any. */
export function pathItem(parameters: JsonObject[], operations: Record<string, JsonObject | undefined>) {
  const present = Object.entries(operations).filter((entry): entry is [string, JsonObject] => !!entry[1]);
  return present.length === 0 ? undefined : { parameters, ...Object.fromEntries(present) };
}

/** A JSON request or response body of `schema`. */
export const json = (schema: JsonObject) => ({ 'application/json': { schema } });
