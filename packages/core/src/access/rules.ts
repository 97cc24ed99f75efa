import { invalidOption, isPlainObject } from '@store/common';
import type { AccessFunction, Operation } from '../model/hooks';
import type { ResolvedAccess, ResolvedRule } from '../model/resource';

const OPERATIONS: readonly Operation[] = ['read', 'create', 'update', 'delete'];

/** The operation of each method a resource route answers. */
export const OPERATION_OF_METHOD: Readonly<Record<string, Operation>> = {
  GET: 'read',
  HEAD: 'read',
  POST: 'create',
  PUT: 'update',
  PATCH: 'update',
  DELETE: 'delete',
};

const NAMED_RULES = ['public', 'authenticated', 'owner', 'none'] as const;

function resolveRule(value: unknown, option: string, ownerField: string): ResolvedRule {
  if (typeof value === 'function') return { kind: 'function', decide: value as AccessFunction };
  if (value === 'owner') return { kind: 'owner', field: ownerField };
  if (value === 'public' || value === 'authenticated' || value === 'none') return { kind: value };
  return invalidOption(option, `expected ${NAMED_RULES.map((r) => `"${r}"`).join(', ')} or a function`);
}

/**
 * Resolves `access` (one rule, or `{ read, create, update, delete }` where a missing operation is
 * `"none"`) with the resource's `ownerField`. Throws `invalid_config` naming a bad value.
 */
export function resolveAccess(value: unknown, option: string, ownerField: string): ResolvedAccess {
  if (!isPlainObject(value)) {
    const rule = resolveRule(value, option, ownerField);
    return { read: rule, create: rule, update: rule, delete: rule };
  }
  for (const key of Object.keys(value)) {
    if (!OPERATIONS.includes(key as Operation)) {
      invalidOption(`${option}.${key}`, `unknown operation (known: ${OPERATIONS.join(', ')})`);
    }
  }
  const ruleOf = (operation: Operation) =>
    resolveRule(value[operation] ?? 'none', `${option}.${operation}`, ownerField);
  return {
    read: ruleOf('read'),
    create: ruleOf('create'),
    update: ruleOf('update'),
    delete: ruleOf('delete'),
  };
}

/** `ownerField`: one top-level field name (the owner is set on create, so no dotted path). */
export function checkOwnerField(value: unknown, option: string): string {
  if (typeof value !== 'string' || !/^[^$.\0][^.\0]{0,199}$/.test(value)) {
    invalidOption(option, 'expected a top-level field name such as "user_id"');
  }
  return value;
}

/** The default owner field of `"owner"` rules. */
export const DEFAULT_OWNER_FIELD = 'user_id';

/** What every resource without its own `access` gets unless `defaultAccess` says otherwise. */
export const PUBLIC_ACCESS: ResolvedAccess = resolveAccess('public', 'defaultAccess', DEFAULT_OWNER_FIELD);
