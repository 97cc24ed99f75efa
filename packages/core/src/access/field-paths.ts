/**
 * The field of `fields` that `path` reaches: the field itself, a path inside it, or an object
 * holding it (`meta` reaches `meta.owner`). `undefined` when it reaches none. Used wherever a
 * query or a write must keep off some fields (hidden, bound and managed ones).
 */
export function reachedField(path: string, fields: readonly string[]): string | undefined {
  return fields.find(
    (field) => path === field || path.startsWith(`${field}.`) || field.startsWith(`${path}.`),
  );
}
