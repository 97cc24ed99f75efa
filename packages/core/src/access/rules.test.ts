import { describe, expect, it } from 'vitest';
import { optionError } from '../../test/support/option-error';
import { resolveStoreOptions } from '../config/options';
import { findResource } from '../model/find-resource';
import { resolveAccess } from './rules';

describe('resolveAccess', () => {
  it('gives one rule to every operation', () => {
    expect(resolveAccess('authenticated', 'x', 'user_id')).toEqual({
      read: { kind: 'authenticated' },
      create: { kind: 'authenticated' },
      update: { kind: 'authenticated' },
      delete: { kind: 'authenticated' },
    });
  });

  it('makes an operation left out of the object form "none", and "owner" carry its field', () => {
    expect(resolveAccess({ read: 'public', update: 'owner' }, 'x', 'author')).toEqual({
      read: { kind: 'public' },
      create: { kind: 'none' },
      update: { kind: 'owner', field: 'author' },
      delete: { kind: 'none' },
    });
  });

  it('keeps a function as the rule of its operation', () => {
    const decide = () => true;
    expect(resolveAccess({ delete: decide }, 'x', 'user_id').delete).toEqual({ kind: 'function', decide });
  });
});

describe('access options', () => {
  it.each([
    ['an unknown rule name', { resources: { notes: { access: 'owners' } } }, 'resources.notes.access'],
    [
      'an unknown operation',
      { resources: { notes: { access: { reed: 'public' } } } },
      'resources.notes.access.reed',
    ],
    [
      'a bad rule of an operation',
      { resources: { notes: { access: { read: 1 } } } },
      'resources.notes.access.read',
    ],
    [
      'a dotted ownerField',
      { resources: { notes: { ownerField: 'meta.owner' } } },
      'resources.notes.ownerField',
    ],
    [
      'a hook that is no function',
      { resources: { notes: { hooks: { afterRead: 'x' } } } },
      'resources.notes.hooks.afterRead',
    ],
    [
      'an unknown hook',
      { resources: { notes: { hooks: { afterSave: () => 1 } } } },
      'resources.notes.hooks.afterSave',
    ],
    [
      'a hidden list that is no array',
      { resources: { notes: { hidden: 'secret' } } },
      'resources.notes.hidden',
    ],
    ['a bad defaultAccess', { defaultAccess: 'everyone' }, 'defaultAccess'],
    [
      'a hidden path with an array position',
      { resources: { notes: { hidden: ['cards.0.cvv'] } } },
      'resources.notes.hidden[0]',
    ],
    [
      'a searchable field holding a hidden one',
      { resources: { notes: { search: ['cards'], hidden: ['cards.cvv'] } } },
      'resources.notes.search',
    ],
    [
      'a protected list that is no array',
      { resources: { notes: { protected: 'role' } } },
      'resources.notes.protected',
    ],
    [
      'a dotted protected field',
      { resources: { notes: { protected: ['meta.role'] } } },
      'resources.notes.protected[0]',
    ],
    ['a protected _id', { resources: { notes: { protected: ['_id'] } } }, 'resources.notes.protected[0]'],
  ])('refuses %s with invalid_config naming it', (_name, config, option) => {
    expect(optionError(config)).toMatchObject({ code: 'invalid_config', option });
  });

  it('gives undeclared resources and declared ones without access the defaultAccess, with their ownerField', () => {
    const options = resolveStoreOptions({
      defaultAccess: 'owner',
      resources: { pins: { ownerField: 'author' }, notes: { access: 'public' } },
    });
    expect(findResource(options, 'anything')?.access.read).toEqual({ kind: 'owner', field: 'user_id' });
    expect(options.resources.get('pins')?.access.update).toEqual({ kind: 'owner', field: 'author' });
    expect(options.resources.get('notes')?.access.delete).toEqual({ kind: 'public' });
  });

  it('defaults to "public" everywhere', () => {
    expect(findResource(resolveStoreOptions({}), 'posts')?.access.create).toEqual({ kind: 'public' });
  });
});
