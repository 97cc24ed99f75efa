import type { AuthCollection, AuthDocument } from './db';
import { isDuplicateKeyError } from './db';
import { AuthError } from './errors';

/**
 * States of a stored secret. `active` -> `used` (verified; one atomic change), `retired`
 * (a newer one pushed it past `max`), `exhausted` (a code after `maxGuesses` misses).
 */
type SecretState = 'active' | 'used' | 'retired' | 'exhausted';

/** A stored secret: only its keyed hash, never the secret itself. */
export type SecretRecord = {
  hash: string;
  email: string;
  state: SecretState;
  attempts: number;
  createdAt: Date;
  expiresAt: Date;
  /** Who asked, shown on the confirmation page. */
  requestedBy: { ip: string | null; userAgent: string | null };
};

/** Stores a new secret; `false` when its hash is taken (a code collision: draw again). */
export async function insertSecret(collection: AuthCollection, record: SecretRecord): Promise<boolean> {
  try {
    await collection.insertOne({ ...record });
    return true;
  } catch (error) {
    if (isDuplicateKeyError(error)) return false;
    throw error;
  }
}

/** Active, unexpired secrets of an address, newest first. */
export async function activeSecrets(
  collection: AuthCollection,
  email: string,
  now: Date,
): Promise<AuthDocument[]> {
  return collection
    .find(
      { email, state: 'active', expiresAt: { $gt: now } },
      { sort: { createdAt: -1, _id: -1 }, limit: 1000 },
    )
    .toArray();
}

/** Keeps the `max` newest active secrets of the address; older ones become `retired` (no lock-out). */
export async function retireBeyondMax(
  collection: AuthCollection,
  email: string,
  max: number,
  now: Date,
): Promise<void> {
  const active = await activeSecrets(collection, email, now);
  for (const record of active.slice(max)) {
    await collection.updateOne(
      { _id: record._id, state: 'active' },
      { $set: { state: 'retired', retiredAt: now } },
    );
  }
}

/**
 * The single atomic state change that makes a secret single use: `active` and unexpired (plus
 * `extra` conditions) to `used`. Of two concurrent claims exactly one gets the record back.
 */
export function claimSecret(
  collection: AuthCollection,
  filter: AuthDocument,
  now: Date,
  set: AuthDocument = {},
): Promise<AuthDocument | null> {
  return collection.findOneAndUpdate(
    { ...filter, state: 'active', expiresAt: { $gt: now } },
    { $set: { ...set, state: 'used', usedAt: now } },
    { returnDocument: 'after' },
  );
}

/** Which error a secret that cannot be used answers with: 409 used, 410 expired or replaced, 401 dead code. */
function unusableSecretError(record: AuthDocument, now: Date): AuthError | null {
  if (record.state === 'used') return new AuthError('already_used', 'This sign-in secret was already used');
  if (record.state === 'exhausted')
    return new AuthError('invalid_code', 'Too many wrong codes: request a new one');
  if (record.state === 'retired')
    return new AuthError('token_expired', 'A newer sign-in message replaced this one');
  if (!(record.expiresAt instanceof Date) || record.expiresAt.getTime() <= now.getTime()) {
    return new AuthError('token_expired', 'This sign-in secret has expired');
  }
  return null;
}

/** Throws when the record cannot be used now (see {@link unusableSecretError}). */
export function assertUsable(record: AuthDocument, now: Date): void {
  const error = unusableSecretError(record, now);
  if (error !== null) throw error;
}

/** After a lost claim: the reason, read back from the database. */
export async function claimLostError(
  collection: AuthCollection,
  filter: AuthDocument,
  now: Date,
): Promise<AuthError> {
  const record = await collection.findOne(filter);
  if (record === null) return new AuthError('token_not_found', 'Unknown sign-in secret');
  return (
    unusableSecretError(record, now) ?? new AuthError('already_used', 'This sign-in secret was already used')
  );
}

/**
 * Extends the newest live secret of the address (matching `filter`) to `expiresAt`, for a
 * request past the mail quota: the message already in the mailbox stays usable. `also`: more
 * update operators for it (never `$set`), e.g. the browser that asked. `false` when there is none.
 */
export async function extendNewest(
  collection: AuthCollection,
  email: string,
  filter: AuthDocument,
  now: Date,
  expiresAt: Date,
  also: AuthDocument = {},
): Promise<boolean> {
  const [newest] = await collection
    .find(
      { ...filter, email, state: 'active', expiresAt: { $gt: now } },
      { sort: { createdAt: -1, _id: -1 }, limit: 1 },
    )
    .toArray();
  if (newest === undefined) return false;
  const { matchedCount } = await collection.updateOne(
    { _id: newest._id, state: 'active' },
    { ...also, $set: { expiresAt, extendedAt: now } },
  );
  return matchedCount > 0;
}
