import type { StoreConfig } from '@store/core';
import { type AuthApi, type AuthReply, bearer, startAuth } from './auth-fixtures';
import type { Start } from './fixtures';
import { asString, field, type ReplyJson } from './harness';

/** Who sends a request: nobody signed in, or one of two users. */
export type Caller = 'anonymous' | 'ada' | 'bob';

/** A store with one resource per kind of rule, two signed-in users, and their documents. */
export interface AccessApi {
  api: AuthApi;
  /** Each user's `_id` as a path segment (24 hex digits). */
  id: Record<Exclude<Caller, 'anonymous'>, string>;
  /** The headers `caller`'s requests carry (a bearer token, or none). */
  headers(caller: Caller): Record<string, string>;
  send(
    caller: Caller,
    method: string,
    path: string,
    json?: unknown,
    headers?: Record<string, string>,
  ): Promise<AuthReply>;
}

/**
 * The rules under test, one resource each (docs/access.md#rules): `team-tasks` decides by function (a filter
 * on the user's team, `false` for anonymous), `drafts` mixes rules per operation, `pins` owns by
 * `author`. `folders` and `comments` are public relatives of `notes`.
 */
const ACCESS_RESOURCES = {
  open: { access: 'public' },
  members: { access: 'authenticated' },
  notes: { access: 'owner' },
  vault: { access: 'none' },
  pins: { access: 'owner', ownerField: 'author' },
  drafts: { access: { read: 'public', create: 'authenticated', update: 'owner' } },
  'team-tasks': {
    access: (ctx: { user: { team?: string } | null }) =>
      ctx.user === null ? false : { team: ctx.user.team },
  },
} as const;

const EMAILS = { ada: 'ada@example.test', bob: 'bob@example.test' } as const;

async function signIn(api: AuthApi, email: string): Promise<{ id: string; token: string }> {
  await api.send('POST', '/auth/magic-code/', { json: { email } });
  const verified = await api.send('POST', '/auth/magic-code/verify', {
    json: { email, code: api.mailbox.codeTo(email) },
  });
  return {
    id: asString(field(verified.json, 'user', '_id')),
    token: asString(field(verified.json, 'token')),
  };
}

/**
 * Starts the store, signs in ada (team red) and bob (team blue), and stores one document per user
 * in every resource (`a1` owned by ada, `b1` by bob; owner fields hold the stored user `_id`),
 * folders `f1`, and comments on both notes.
 */
export async function startAccess(
  start: Start,
  resources: Record<string, unknown> = {},
  store: Record<string, unknown> = {},
): Promise<AccessApi> {
  const config = { ...store, resources: { ...ACCESS_RESOURCES, ...resources } } as StoreConfig;
  const api = await startAuth(start, { config });
  const ada = await signIn(api, EMAILS.ada);
  const bob = await signIn(api, EMAILS.bob);
  const users = api.db.collection('users');
  const stored = async (email: string) => (await users.findOne({ email }))?._id;
  const [adaId, bobId] = [await stored(EMAILS.ada), await stored(EMAILS.bob)];
  await users.updateOne({ _id: adaId }, { $set: { team: 'red' } });
  await users.updateOne({ _id: bobId }, { $set: { team: 'blue' } });
  const insert = async (name: string, docs: Record<string, unknown>[]) => {
    for (const doc of docs) await api.db.collection(name).insertOne(doc);
  };
  for (const name of Object.keys(ACCESS_RESOURCES)) {
    await insert(name, [
      { _id: 'a1', title: 'ada', user_id: adaId, author: adaId, team: 'red', folder_id: 'f1' },
      { _id: 'b1', title: 'bob', user_id: bobId, author: bobId, team: 'blue', folder_id: 'f1' },
    ]);
  }
  await insert('folders', [{ _id: 'f1', name: 'shared' }]);
  await insert('comments', [
    { _id: 'ca', note_id: 'a1', text: 'on ada' },
    { _id: 'cb', note_id: 'b1', text: 'on bob' },
  ]);
  const tokens = { anonymous: undefined, ada: ada.token, bob: bob.token };
  const headersOf = (caller: Caller) => {
    const token = tokens[caller];
    return token === undefined ? {} : bearer(token);
  };
  return {
    api,
    id: { ada: ada.id, bob: bob.id },
    headers: headersOf,
    send: (caller, method, path, json, headers = {}) =>
      api.send(method, path, { json, headers: { ...headers, ...headersOf(caller) } }),
  };
}

/** The `_id`s of a list answer, in order. */
export const listed = (reply: { json: ReplyJson }): ReplyJson[] | ReplyJson =>
  Array.isArray(reply.json) ? reply.json.map((doc) => field(doc, '_id')) : reply.json;
