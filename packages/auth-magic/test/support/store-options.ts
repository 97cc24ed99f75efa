/** The store's option resolution with `@store/auth-magic` plugged in, for tests of `resources.user.auth`. */
import { isStoreError } from '@store/common';
import { type ResolvedStoreOptions, resolveStoreOptions, type StoreConfig } from '@store/core';
import { type MagicAuthInstance, magicAuth } from '../../src/http/plugin';
import type { ResolvedAuthOptions } from '../../src/resolved-options';

/** `resolveStoreOptions(config)` with `plugins: [magicAuth]`. */
export function resolveWithAuth(config: StoreConfig): ResolvedStoreOptions {
  return resolveStoreOptions({ plugins: [magicAuth], ...config });
}

/** The resolved auth options of a store, or `null` when the plugin stayed off. */
export function authOptionsOf(options: ResolvedStoreOptions): ResolvedAuthOptions | null {
  const active = options.plugins.find(({ plugin }) => plugin === magicAuth);
  return active === undefined ? null : (active.instance as MagicAuthInstance).options;
}

/** The configuration error `resolve` throws (its code, the option it names, its message). */
export function optionErrorOf(resolve: () => unknown): { code: string; option: unknown; message: string } {
  try {
    resolve();
  } catch (error) {
    if (!isStoreError(error)) throw error;
    return { code: error.code, option: error.data?.option, message: error.message };
  }
  throw new Error('expected the options to be refused');
}

/** The configuration error `config` is refused with, the plugin listed. */
export function optionErrorWithAuth(config: unknown) {
  return optionErrorOf(() => resolveWithAuth(config as StoreConfig));
}
