import { isStoreError } from '@store/common';
import { resolveStoreOptions } from '../../src/config/options';
import type { StoreConfig } from '../../src/model/config';

/** What a configuration error tells its reader: its stable code, the option it names, and its message. */
export interface OptionError {
  code: string;
  option: unknown;
  message: string;
}

/**
 * Resolves `config` (hostile input: any value) and answers the typed error it is refused with;
 * throws when it resolves, and rethrows any error that is not a StoreError.
 */
export function optionError(config: unknown): OptionError {
  try {
    resolveStoreOptions(config as StoreConfig);
  } catch (error) {
    if (!isStoreError(error)) throw error;
    return { code: error.code, option: error.data?.option, message: error.message };
  }
  throw new Error('expected resolveStoreOptions to throw');
}
