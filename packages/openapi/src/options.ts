/** The options of `openapi(options)`: the `info` of the document, and the title of the `/docs` page. */
import { checkKeys, invalidOption } from '@store/common';

export interface OpenApiOptions {
  /**
   * `info.title` of the document, and the title of the `/docs` page.
   * @default '@store API'
   */
  title?: string;
  /**
   * `info.version`: the version of your API, not of the store.
   * @default '1.0.0'
   */
  version?: string;
  /**
   * `info.description` (CommonMark).
   * @default undefined (none)
   */
  description?: string;
}

/** {@link OpenApiOptions} with the defaults applied and every value checked. */
export interface ResolvedOpenApiOptions {
  readonly title: string;
  readonly version: string;
  readonly description: string | undefined;
}

const OPENAPI_OPTIONS = [
  'title',
  'version',
  'description',
] as const satisfies readonly (keyof OpenApiOptions)[];

function checkText(value: unknown, option: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.trim() === '') invalidOption(option, 'expected a non-empty string');
  return value;
}

/**
 * Applies the defaults of {@link OpenApiOptions} (`??`: an explicit `undefined` keeps one) and
 * throws an `OptionError` (code `invalid_config`) naming the option (`openapi.title`) for a value
 * that is not a non-empty string, or for an unknown option.
 */
export function resolveOpenApiOptions(options: unknown = {}): ResolvedOpenApiOptions {
  const config: OpenApiOptions = checkKeys(options, 'openapi', OPENAPI_OPTIONS);
  return Object.freeze({
    title: checkText(config.title, 'openapi.title') ?? '@store API',
    version: checkText(config.version, 'openapi.version') ?? '1.0.0',
    description: checkText(config.description, 'openapi.description'),
  });
}
