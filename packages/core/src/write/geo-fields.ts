import type { Document } from '@store/common';
import { isPlainObject } from '@store/common';
import { geoValueProblem } from '@store/query';
import type { RequestContext } from '../model/context';
import { storeError } from '../model/error-codes';

const INDEX = /^\d+$/;

/**
 * The values a `2dsphere` index on `segments` reads in `value`, each with its dotted place:
 * arrays on the way are crossed (element by element, or by an index segment), the value at
 * the end is taken whole.
 */
function valuesAt(value: unknown, segments: readonly string[], at: string): [string, unknown][] {
  const [segment, ...rest] = segments;
  if (segment === undefined) return [[at, value]];
  if (Array.isArray(value)) {
    if (INDEX.test(segment)) return valuesAt(value[Number(segment)], rest, `${at}.${segment}`);
    return value.flatMap((item, i) => valuesAt(item, segments, `${at}.${i}`));
  }
  if (!isPlainObject(value) || !Object.hasOwn(value, segment)) return [];
  return valuesAt(value[segment], rest, `${at}.${segment}`);
}

/**
 * Refuses a document MongoDB would refuse to store because a field of `resources.<name>.geo`
 * (with its `2dsphere` index) holds no valid GeoJSON or legacy pair (error 16755): a 400
 * `invalid_body` naming the field, on both engines.
 */
export function checkGeoFields(ctx: RequestContext, document: Document): void {
  const { name, geo } = ctx.resource;
  for (const path of geo) {
    for (const [at, value] of valuesAt(document, path.split('.'), 'body')) {
      const problem = geoValueProblem(value);
      if (problem === undefined) continue;
      throw storeError(
        'invalid_body',
        `${at}: ${problem}. "${path}" holds GeoJSON (resources.${name}.geo), such as {"type":"Point","coordinates":[lng, lat]}.`,
      );
    }
  }
}

/** Whether a PATCH key sets a geo field, a field inside one or one holding one. */
export function touchesGeo(ctx: RequestContext, keys: readonly string[]): boolean {
  return ctx.resource.geo.some((path) =>
    keys.some((key) => key === path || path.startsWith(`${key}.`) || key.startsWith(`${path}.`)),
  );
}
