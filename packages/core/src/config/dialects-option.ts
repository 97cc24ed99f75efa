/**
 * The `dialects` option: which foreign client dialects the store reads besides its own.
 *
 * Shape (stable): `createStore({ dialects: { jsonServer: true, simpleRest: true } })`;
 * `dialects: true` turns both on, `false` or undefined neither (the default). Resolved to
 * `options.dialects` = `{ jsonServer, simpleRest, foreign }`, `foreign` being true when any
 * foreign dialect is on (then `DELETE` of one document answers 200 with it, problem bodies also
 * carry `message`, nested routes match `<singular>Id` too). The dialect is chosen per store, not
 * per request.
 */
import { checkBoolean, checkKeys, invalidOption, isPlainObject } from '@store/common';
import type { DialectsConfig } from '../model/config';
import type { ResolvedDialects } from '../model/options';

const DIALECT_OPTIONS = ['jsonServer', 'simpleRest'] as const satisfies readonly (keyof DialectsConfig)[];

/** Both foreign dialects off: the store's own query language only. */
const NO_FOREIGN_DIALECTS: ResolvedDialects = Object.freeze({
  jsonServer: false,
  simpleRest: false,
  foreign: false,
});

function dialects(jsonServer: boolean, simpleRest: boolean): ResolvedDialects {
  return Object.freeze({ jsonServer, simpleRest, foreign: jsonServer || simpleRest });
}

/**
 * Resolves `dialects`: undefined or `false` is none, `true` both, or `{ jsonServer, simpleRest }`.
 * Public: an adapter or server that answers problems of its own (a 404 outside the store) reads
 * `foreign` from it, so its problems carry `message` as the store's do.
 */
export function resolveDialects(value: unknown): ResolvedDialects {
  if (value === undefined || value === false) return NO_FOREIGN_DIALECTS;
  if (value === true) return dialects(true, true);
  if (!isPlainObject(value)) {
    invalidOption('dialects', 'expected true, false or { jsonServer, simpleRest }');
  }
  const config: DialectsConfig = checkKeys(value, 'dialects', DIALECT_OPTIONS);
  return dialects(
    checkBoolean(config.jsonServer ?? false, 'dialects.jsonServer'),
    checkBoolean(config.simpleRest ?? false, 'dialects.simpleRest'),
  );
}
