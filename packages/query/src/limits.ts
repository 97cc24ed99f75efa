/** Fixed bounds on hostile input. Not options: they protect the server, not taste. */
export const LIMITS = {
  /** Longest field path, in characters. */
  fieldLength: 200,
  /** Longest `$query` value, in characters. */
  rawQueryLength: 4096,
  /** Deepest nesting of objects and arrays inside one `$query`. */
  rawQueryDepth: 8,
  /** Longest regular-expression pattern, in characters. */
  regexLength: 256,
  /** Longest JSON value of `$regex` and the geo forms, in characters. */
  jsonValueLength: 16_384,
  /** Most parameters (key=value pairs) in one query string. */
  parameters: 1000,
  /** Most values of one repeated parameter. */
  arrayValues: 100,
  /** Most keys of the compiled sort, `_id` tie-breaker included (MongoDB refuses more than 32). */
  sortKeys: 32,
  /** Most OR groups (`$or[<n>][...]`) in one query string. */
  orGroups: 20,
  /** Longest `$after` cursor, in characters. */
  cursorLength: 4096,
  /** Longest `$search` text and `$$flag` name, in characters. */
  textLength: 1024,
} as const;
