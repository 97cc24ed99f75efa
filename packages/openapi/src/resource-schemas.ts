/**
 * The component schemas of a resource: `<name>.input`, its `schema` as configured (what a body
 * must satisfy), `<name>.document`, a document as answers show it (the id added as `wireId`
 * names it, hidden fields removed, store-written fields read-only, other fields allowed), and
 * `<name>.patch`, the fields a `PATCH` sets. A resource without a `schema` gets objects that allow
 * any field, so clients generated with default options accept every document.
 */
import type { DescribedResource } from '@store/core';
import type { JsonObject } from './json-object';

export const schemaRef = (name: string) => `#/components/schemas/${name}`;
export const inputSchemaName = (resource: string) => `${resource}.input`;
export const documentSchemaName = (resource: string) => `${resource}.document`;
export const patchSchemaName = (resource: string) => `${resource}.patch`;

/** The primary key's name on the wire (`wireId` of the store). */
export type IdKey = '_id' | 'id';

const isObject = (value: unknown): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A copy of `schema` whose local references (`#/definitions/x`) point into the component it
 * becomes (`#/components/schemas/<name>/definitions/x`). Its root `$id` is dropped: two
 * components hold copies of it, and references are resolved from the component already.
 */
function copyAt(schema: Readonly<JsonObject>, component: string): JsonObject {
  const copy = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(copy);
    if (!isObject(value)) return value;
    const entries = Object.entries(value).map(([key, item]) =>
      key === '$ref' && typeof item === 'string' && item.startsWith('#')
        ? [key, `${schemaRef(component)}${item.slice(1)}`]
        : [key, copy(item)],
    );
    return Object.fromEntries(entries);
  };
  const { $id, ...root } = schema;
  return copy(root) as JsonObject;
}

/** The schema of the properties at `path` (`a.b`: through `properties`, and `items` of arrays). */
function parentOf(schema: JsonObject, segments: readonly string[]): JsonObject | undefined {
  let at: unknown = schema;
  for (const segment of segments) {
    if (isObject(at) && isObject(at.items)) at = at.items;
    const properties = isObject(at) ? at.properties : undefined;
    at = isObject(properties) ? properties[segment] : undefined;
  }
  if (isObject(at) && isObject(at.items)) at = at.items;
  return isObject(at) ? at : undefined;
}

/** Removes the field at dotted `path` from `schema` (and from its level's `required`). */
function removeField(schema: JsonObject, path: string): void {
  const segments = path.split('.');
  const name = segments.pop() as string;
  const parent = parentOf(schema, segments);
  if (parent === undefined) return;
  if (isObject(parent.properties)) delete parent.properties[name];
  if (Array.isArray(parent.required)) parent.required = parent.required.filter((field) => field !== name);
}

/** Marks the top-level `fields` that exist in `schema` read-only: the store writes them. */
function markReadOnly(schema: JsonObject, fields: readonly string[]): void {
  const properties = isObject(schema.properties) ? schema.properties : {};
  for (const field of fields) {
    const property = properties[field];
    if (isObject(property)) properties[field] = { ...property, readOnly: true };
  }
}

/** The fields the store writes itself on documents of `resource`. */
function storeFields(resource: DescribedResource): JsonObject {
  const date = { type: 'string', format: 'date-time', readOnly: true };
  return {
    ...(resource.timestamps ? { createdAt: date, updatedAt: date } : {}),
    ...(resource.softDelete ? { deletedAt: { ...date, description: 'Set by DELETE (soft delete).' } } : {}),
  };
}

/** `<name>.input`: a body of `POST` (or an item of its array) and `PUT`. */
function inputSchema(resource: DescribedResource, idKey: IdKey): JsonObject {
  const name = inputSchemaName(resource.name);
  const schema =
    resource.schema === undefined
      ? { type: 'object', additionalProperties: true }
      : copyAt(resource.schema, name);
  markReadOnly(schema, [...resource.protected, ...resource.managed]);
  const properties = isObject(schema.properties) ? schema.properties : {};
  return { ...schema, properties: { [idKey]: { $ref: schemaRef('IdInput') }, ...properties } };
}

/**
 * `<name>.patch`: the body of a `PATCH` (`application/json`): any of the document's fields, none
 * required; other keys are allowed too (dotted paths such as `author.name`), the result being
 * checked against the schema.
 */
function patchSchema(resource: DescribedResource): JsonObject {
  const input = resource.schema === undefined ? {} : copyAt(resource.schema, inputSchemaName(resource.name));
  markReadOnly(input, [...resource.protected, ...resource.managed]);
  const properties = isObject(input.properties) ? input.properties : {};
  return {
    type: 'object',
    minProperties: 1,
    description: `Fields of \`${resource.name}\` to set; keys may be dotted paths (\`{"author.name": "Ann"}\`). The result must satisfy the resource's schema.`,
    properties,
    additionalProperties: true,
  };
}

/**
 * `<name>.document`: a document as answered. `$populate` and `$fill` add fields named after
 * relations, so it allows other properties whatever the configured schema says.
 */
function documentSchema(resource: DescribedResource, idKey: IdKey): JsonObject {
  const { additionalProperties, unevaluatedProperties, ...schema } =
    resource.schema === undefined
      ? { type: 'object' }
      : copyAt(resource.schema, inputSchemaName(resource.name));
  for (const field of resource.hidden) removeField(schema, field);
  markReadOnly(schema, [...resource.protected, ...resource.managed]);
  const properties = isObject(schema.properties) ? schema.properties : {};
  const required = Array.isArray(schema.required) ? schema.required : [];
  return {
    ...schema,
    description: `A document of \`${resource.name}\` as answered (\`$select\` answers only the fields it lists).`,
    properties: { [idKey]: { $ref: schemaRef('Id') }, ...properties, ...storeFields(resource) },
    required: [idKey, ...required.filter((field) => field !== idKey)],
    additionalProperties: true,
  };
}

/** The component schemas of a resource, by component name. */
export function resourceSchemas(resource: DescribedResource, idKey: IdKey): JsonObject {
  return {
    [inputSchemaName(resource.name)]: inputSchema(resource, idKey),
    [documentSchemaName(resource.name)]: documentSchema(resource, idKey),
    [patchSchemaName(resource.name)]: patchSchema(resource),
  };
}

/** The shared schemas every description holds, the id named `idKey`. */
export const sharedSchemas = (idKey: IdKey): JsonObject => ({
  Id: {
    description:
      'A document id: a 24-hex ObjectId string the store made, or the string or integer the client gave.',
    anyOf: [{ type: 'string', minLength: 1, maxLength: 1024 }, { type: 'integer' }],
  },
  IdInput: {
    description: `An \`${idKey}\` to store: a string, an integer, or an ObjectId as \`{"$oid": "<24 hex>"}\`. Absent: the store makes one.`,
    anyOf: [
      { type: 'string', minLength: 1, maxLength: 1024 },
      { type: 'integer' },
      {
        type: 'object',
        required: ['$oid'],
        properties: { $oid: { type: 'string', pattern: '^[0-9a-fA-F]{24}$' } },
        additionalProperties: false,
      },
    ],
  },
  Document: {
    type: 'object',
    description: 'A document of a resource without a schema: its id and any other field.',
    required: [idKey],
    properties: { [idKey]: { $ref: schemaRef('Id') } },
    additionalProperties: true,
  },
  DocumentInput: {
    type: 'object',
    description: 'A document to store: any JSON object (keys starting with `$` or holding `.` are refused).',
    properties: { [idKey]: { $ref: schemaRef('IdInput') } },
    additionalProperties: true,
  },
  Count: { type: 'object', required: ['count'], properties: { count: { type: 'integer', minimum: 0 } } },
  BulkUpdate: {
    type: 'object',
    description:
      'What a bulk `PATCH` matched, and changed (documents already holding the values are not modified).',
    required: ['matched', 'modified'],
    properties: { matched: { type: 'integer', minimum: 0 }, modified: { type: 'integer', minimum: 0 } },
  },
  BulkDelete: {
    type: 'object',
    required: ['deleted'],
    properties: { deleted: { type: 'integer', minimum: 0 } },
  },
  DottedPatch: {
    type: 'object',
    minProperties: 1,
    description:
      'Fields to set; keys may be dotted paths (`{"author.name": "Ann"}` changes one field of `author`). The result must satisfy the resource\'s schema.',
    additionalProperties: true,
  },
  MergePatch: {
    type: 'object',
    description:
      'A JSON Merge Patch (RFC 7396): `null` removes a member, an object merges member by member, any other value replaces.',
    additionalProperties: true,
  },
});
