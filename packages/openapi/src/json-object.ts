/** A JSON object of the OpenAPI description (a schema, an operation, a path item). Types only. */
export type JsonObject = Record<string, unknown>;
