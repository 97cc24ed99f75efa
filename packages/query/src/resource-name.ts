/** A resource (collection) name: the rule shared by routes, `$populate` and `$fill`. */
export const RESOURCE_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

/** True when `name` is a string matching {@link RESOURCE_NAME}. */
export function isValidResourceName(name: unknown): name is string {
  return typeof name === 'string' && RESOURCE_NAME.test(name);
}
