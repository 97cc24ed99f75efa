/** The embedded database: named collections created on first use, all in memory. */
import type { StoreDb } from '@store/common';
import { EmbeddedCollection, type EngineState } from './collection';

const embeddedDbs = new WeakSet<object>();

/** True for a database made by {@link createEmbeddedDb}. */
export function isEmbeddedDb(value: unknown): value is EmbeddedDb {
  return typeof value === 'object' && value !== null && embeddedDbs.has(value);
}

/** A {@link StoreDb} kept in memory by the embedded engine. */
export interface EmbeddedDb extends StoreDb {
  collection(name: string): EmbeddedCollection;
  /** Drops every collection; later operations fail (code 11600, like a server shutting down). */
  close(): Promise<void>;
}

/**
 * Creates an empty in-memory database implementing the storage interface with MongoDB's
 * semantics (query, update and projection operators through mingo, unique/text/2dsphere/TTL
 * indexes, duplicate key errors with code 11000).
 */
export function createEmbeddedDb(): EmbeddedDb {
  const state: EngineState = { closed: false };
  const collections = new Map<string, EmbeddedCollection>();
  const db: EmbeddedDb = {
    collection(name) {
      let collection = collections.get(name);
      if (!collection) {
        collection = new EmbeddedCollection(name, state);
        if (!state.closed) collections.set(name, collection);
      }
      return collection;
    },
    async close() {
      state.closed = true;
      collections.clear();
    },
  };
  embeddedDbs.add(db);
  return db;
}
