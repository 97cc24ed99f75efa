import pluralize from 'pluralize';

/** Per-resource singular forms that win over the pluralization library. */
export type SingularOverrides = Readonly<Record<string, string>>;

/** The two reference fields a child document may carry towards one parent resource. */
export interface ReferenceFields {
  /** Single reference, e.g. `company_id`. */
  readonly one: string;
  /** Array of references, e.g. `company_ids`. */
  readonly many: string;
  /**
   * With `camelCase`: the json-server spellings, also read (`companyId`, `companyIds`), so
   * `$populate`, `$fill` and nested routes join either.
   */
  readonly camel?: { readonly one: string; readonly many: string };
}

/** How many singular forms {@link librarySingular} keeps (names come from requests, so it is bounded). */
const KEPT_SINGULARS = 1000;
const singulars = new Map<string, string>();

/**
 * `pluralize.singular`, remembered: the library tries its rules in turn (~2 µs a name), and a
 * request with relations asks for the same names several times.
 */
function librarySingular(resource: string): string {
  let found = singulars.get(resource);
  if (found === undefined) {
    found = pluralize.singular(resource);
    if (singulars.size >= KEPT_SINGULARS) singulars.clear();
    singulars.set(resource, found);
  }
  return found;
}

/**
 * Singular form of a plural resource name (`companies` -> `company`, `people` -> `person`),
 * from the `pluralize` library unless `overrides` names the resource (own keys only, so a
 * resource called `constructor` never reads `Object.prototype`).
 */
export function singular(resource: string, overrides?: SingularOverrides): string {
  if (overrides !== undefined && Object.hasOwn(overrides, resource)) {
    const override = overrides[resource];
    if (override !== undefined) return override;
  }
  return librarySingular(resource);
}

/**
 * Reference field names on a child of `parentResource`:
 * `{ one: '<singular>_id', many: '<singular>_ids' }`, and with `camelCase` also
 * `camel: { one: '<singular>Id', many: '<singular>Ids' }`.
 */
export function referenceFields(
  parentResource: string,
  overrides?: SingularOverrides,
  camelCase = false,
): ReferenceFields {
  const name = singular(parentResource, overrides);
  const fields = { one: `${name}_id`, many: `${name}_ids` };
  return camelCase ? { ...fields, camel: { one: `${name}Id`, many: `${name}Ids` } } : fields;
}

/** Every field of `fields`: `one`, `many`, then the camel-case ones when present. */
export function allReferenceFields(fields: ReferenceFields): string[] {
  const { one, many, camel } = fields;
  return camel === undefined ? [one, many] : [one, many, camel.one, camel.many];
}
