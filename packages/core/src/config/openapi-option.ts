import { checkKeys, invalidOption } from '@store/common';
import type { OpenApiConfig } from '../model/config';
import type { ResolvedOpenApi } from '../model/options';

const OPENAPI_OPTIONS = [
  'title',
  'version',
  'description',
] as const satisfies readonly (keyof OpenApiConfig)[];

function checkText(value: unknown, option: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.trim() === '') invalidOption(option, 'expected a non-empty string');
  return value;
}

/** `openapi`, defaults applied: `undefined` when off (the default). */
export function resolveOpenApi(value: unknown): ResolvedOpenApi | undefined {
  if (value === undefined || value === false) return undefined;
  const config: OpenApiConfig = value === true ? {} : checkKeys(value, 'openapi', OPENAPI_OPTIONS);
  return Object.freeze({
    title: checkText(config.title, 'openapi.title') ?? '@store API',
    version: checkText(config.version, 'openapi.version') ?? '1.0.0',
    description: checkText(config.description, 'openapi.description'),
  });
}
