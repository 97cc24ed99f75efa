import { createRequire } from 'node:module';
import type { Document } from '@store/common';
import { invalidOption, isPlainObject } from '@store/common';
import type { Ajv, ErrorObject } from 'ajv';
import { storeError } from '../model/error-codes';
import type { BodyFieldError, BodyValidator } from '../model/resource';
import { REVISION_FIELD } from '../model/revision';

/** Most `errors` entries an `invalid_body` answer lists (a hostile body may fail thousands of times). */
export const MAX_BODY_ERRORS = 50;

/** Longest `field` an entry reports; longer paths (hostile keys) are cut and end with `...`. */
const MAX_FIELD_LENGTH = 200;

/** How many fields the problem `detail` names before "and N more". */
const DETAIL_FIELDS = 3;

let shared: Ajv | undefined;

/** `require`, for Ajv: loaded on first use, so a store without body schemas never loads it (about 50 ms of a start). */
const load = createRequire(import.meta.url);

/**
 * The one Ajv instance of the process, made on first use. `strict` is on (unknown keywords,
 * formats and ambiguous types are configuration errors) except `strictRequired`, which refuses
 * the common `anyOf: [{ required: ['a'] }, { required: ['b'] }]` with `a` and `b` declared
 * beside the `anyOf`. The formats of `ajv-formats` are installed (`email`, `date-time`, `uri`,
 * `uuid`, ...: {@link KNOWN_FORMATS}); any other `format` is a configuration error.
 */
function sharedAjv(): Ajv {
  if (shared === undefined) {
    const { Ajv: AjvClass }: typeof import('ajv') = load('ajv');
    const { default: addFormats }: typeof import('ajv-formats') = load('ajv-formats');
    shared = new AjvClass({ allErrors: true, strict: true, strictRequired: false });
    addFormats(shared);
  }
  return shared;
}

/** The `format` names a schema may use, for the message that refuses another. */
const KNOWN_FORMATS = () => Object.keys(sharedAjv().formats).sort().join(', ');

const UNKNOWN_FORMAT = /unknown format "([^"]*)"/;

/** The Ajv error param that names the property a failure is about, beyond `instancePath`. */
const PROPERTY_PARAMS = ['missingProperty', 'additionalProperty', 'unevaluatedProperty', 'propertyName'];

function cut(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}...` : text;
}

/** `/address/city` (a JSON Pointer, `~1` and `~0` escaped) plus the named property, as `address.city`. */
function fieldOf(error: ErrorObject): string {
  const segments = error.instancePath
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
  const params = error.params as Record<string, unknown>;
  const named =
    error.propertyName ?? PROPERTY_PARAMS.map((p) => params[p]).find((v) => typeof v === 'string');
  if (typeof named === 'string') segments.push(named);
  return cut(segments.join('.'), MAX_FIELD_LENGTH);
}

/** Ajv's errors as `{ field, message }`, duplicates dropped; `total` counts them before the cap. */
function fieldErrors(errors: readonly ErrorObject[]): { list: BodyFieldError[]; total: number } {
  const seen = new Set<string>();
  const list: BodyFieldError[] = [];
  for (const error of errors) {
    const entry = { field: fieldOf(error), message: error.message ?? 'is invalid' };
    const key = `${entry.field}\0${entry.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    if (list.length < MAX_BODY_ERRORS) list.push(entry);
  }
  return { list, total: seen.size };
}

function describe({ field, message }: BodyFieldError): string {
  return field === '' ? `the body (${message})` : `${JSON.stringify(cut(field, 40))} (${message})`;
}

function invalidBody(errors: readonly ErrorObject[]) {
  const { list, total } = fieldErrors(errors);
  const named = list.slice(0, DETAIL_FIELDS).map(describe).join(', ');
  const more = total > DETAIL_FIELDS ? ` and ${total - DETAIL_FIELDS} more` : '';
  return storeError('invalid_body', `The body does not match the schema: ${named}${more}.`, {
    extensions: { errors: list },
  });
}

/**
 * What the schema sees: the document as a response would render it (JSON: a Date is its ISO
 * 8601 string, an ObjectId its 24-hex string), without the top-level `_id` and revision the store manages.
 */
function jsonView(document: Document): unknown {
  const { _id, [REVISION_FIELD]: _revision, ...fields } = document;
  return JSON.parse(JSON.stringify(fields));
}

/**
 * Compiles `resources.<name>.schema` (named by `option`) once, when options are resolved.
 *
 * - The root must be an object schema with `type: "object"` (a body is always a JSON object);
 *   anything else, an `$async` schema, or a schema Ajv refuses is `invalid_config`.
 * - Ajv 8, draft-07, `allErrors`, strict mode (see above); the formats of `ajv-formats`
 *   (full mode) are checked, and an unknown `format` is refused rather than silently ignored.
 *   `default` is not applied.
 * - The document is validated as JSON, as clients read it: a Date validates as a string (its
 *   ISO 8601 form) and an ObjectId as a 24-hex string, never as an object. The top-level
 *   `_id` is left out, so one schema fits POST, PUT and a PATCH's merged document alike.
 */
export function compileBodySchema(schema: unknown, option: string): BodyValidator {
  if (!isPlainObject(schema) || schema.type !== 'object') {
    invalidOption(option, 'expected a JSON Schema whose root has type "object" (a body is a JSON object)');
  }
  if (schema.$async !== undefined) invalidOption(option, 'asynchronous schemas ($async) are not supported');
  if (schema.$id !== undefined && typeof schema.$id !== 'string')
    invalidOption(option, '$id must be a string');
  const ajv = sharedAjv();
  let validate: ReturnType<Ajv['compile']>;
  try {
    validate = ajv.compile(schema);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const format = UNKNOWN_FORMAT.exec(message)?.[1];
    if (format !== undefined) {
      invalidOption(
        option,
        `unknown format ${JSON.stringify(format)}; the known formats are ${KNOWN_FORMATS()}`,
      );
    }
    invalidOption(option, `Ajv refused the schema: ${message}`);
  } finally {
    // Compiled functions stand alone: forgetting the schema keeps a root `$id` free for another store.
    ajv.removeSchema(schema);
  }
  return (document) => {
    if (!validate(jsonView(document))) throw invalidBody(validate.errors ?? []);
  };
}
