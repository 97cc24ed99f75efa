/**
 * The databases behind one wire front: each database name its own embedded database, created
 * on first use. The front records which collections exist as MongoDB would see them (made by a
 * write, an index or `create`), since the embedded engine makes a collection on first mention.
 */
import { createEmbeddedDb, type EmbeddedCollection, type EmbeddedDb } from '@store/embedded';
import { CommandError } from './errors';

const NAMESPACE_NOT_FOUND = 26;

/** One database of the front. */
export class WireDatabase {
  readonly engine: EmbeddedDb = createEmbeddedDb();
  readonly #existing = new Set<string>();

  constructor(readonly name: string) {}

  /** The collection `name` (created in the engine if new; see {@link markExisting}). */
  collection(name: unknown): EmbeddedCollection {
    if (typeof name !== 'string' || name === '') {
      throw new CommandError(73, `Invalid namespace specified '${this.name}.${String(name)}'`);
    }
    return this.engine.collection(name);
  }

  /** Records that `name` exists; true when it did not before. */
  markExisting(name: string): boolean {
    if (this.#existing.has(name)) return false;
    this.#existing.add(name);
    return true;
  }

  exists(name: string): boolean {
    return this.#existing.has(name);
  }

  /** The collection `name`, or NamespaceNotFound (26) when it does not exist. */
  existing(name: unknown): EmbeddedCollection {
    const collection = this.collection(name);
    if (!this.#existing.has(collection.collectionName)) {
      throw new CommandError(NAMESPACE_NOT_FOUND, `ns does not exist: ${this.name}.${String(name)}`);
    }
    return collection;
  }

  names(): string[] {
    return [...this.#existing];
  }

  /** Empties the collection `name` and drops its indexes; false when it did not exist. */
  async drop(name: string): Promise<boolean> {
    if (!this.#existing.delete(name)) return false;
    const collection = this.engine.collection(name);
    await collection.deleteMany({});
    for (const index of await collection.listIndexes().toArray()) {
      if (index.name !== '_id_') await collection.dropIndex(index.name);
    }
    return true;
  }
}

/** Every database of one front, by name. */
export class WireDatabases {
  readonly #byName = new Map<string, WireDatabase>();

  get(name: unknown): WireDatabase {
    if (typeof name !== 'string' || name === '' || /[/\\. "$]/.test(name)) {
      throw new CommandError(73, `Invalid database name: '${String(name)}'`);
    }
    let db = this.#byName.get(name);
    if (!db) {
      db = new WireDatabase(name);
      this.#byName.set(name, db);
    }
    return db;
  }

  /** Drops the database `name` (its embedded database is closed). */
  async drop(name: string): Promise<void> {
    const db = this.#byName.get(name);
    this.#byName.delete(name);
    await db?.engine.close();
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.#byName.keys()].map((name) => this.drop(name)));
  }
}
