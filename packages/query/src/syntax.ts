/**
 * The words of the query language, read from the tables the compiler itself uses, for tools that
 * describe it (the `@store/openapi` document): adding an operator, a coercion, a geo form, a
 * reserved parameter or a `$query` operator to its table adds it here too.
 */
import { COERCIONS } from './coerce';
import { GEO_FORMS } from './geo';
import { LIMITS } from './limits';
import { OPERATORS } from './operators';
import { ALLOWED_OPERATORS } from './raw-query-walk';
import { RESERVED } from './reserved';

/** What {@link QUERY_SYNTAX} lists, each in the order of its table. */
export interface QuerySyntax {
  /** `field:<op>=value`: `eq`, `ne`, `gt`, ... */
  readonly operators: readonly string[];
  /** The operators that take a coercion suffix (`field:<op>:<coercion>`). */
  readonly coercibleOperators: readonly string[];
  /** `field:<coercion>=value` and `field:<op>:<coercion>=value`: `bool`, `date`, `id`, `number`. */
  readonly coercions: readonly string[];
  /** `field:geo:<form>=<JSON>`: `near`, `ins:polygon`, ... */
  readonly geoForms: readonly string[];
  /** The reserved `$name` parameters (`$select`, `$sort`, ...); `$or[<n>]` groups and `$$flags` are not among them. */
  readonly reserved: readonly string[];
  /** The operators a `$query` filter may hold; any other is `forbidden_operator`. */
  readonly rawOperators: readonly string[];
  /** The fixed bounds on a query (`LIMITS`: not options). */
  readonly limits: Readonly<typeof LIMITS>;
}

const names = (table: object) => Object.freeze(Object.keys(table));

export const QUERY_SYNTAX: QuerySyntax = Object.freeze({
  operators: names(OPERATORS),
  coercibleOperators: Object.freeze(
    Object.entries(OPERATORS)
      .filter(([, operator]) => operator.coercible)
      .map(([name]) => name),
  ),
  coercions: names(COERCIONS),
  geoForms: names(GEO_FORMS),
  reserved: names(RESERVED),
  rawOperators: Object.freeze([...ALLOWED_OPERATORS]),
  limits: Object.freeze({ ...LIMITS }),
});
