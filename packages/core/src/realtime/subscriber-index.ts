import type { Document } from '@store/common';
import { documentKeys, type EqualityClause } from './equality-keys';

/** What the index needs of a subscriber: the clause its filter pins, if any. */
export interface Indexed {
  readonly clause: EqualityClause | undefined;
}

/**
 * The subscribers of one collection, indexed by the equality clause of their filter (`owner`,
 * `room`...), so a change is tested only against subscribers that could match it: 1,000 users
 * each watching their own notes cost one look-up per change, not 1,000 filter tests.
 */
export class SubscriberIndex<S extends Indexed> {
  /** Subscribers whose filter pins no field: every change is tested against each. */
  readonly #unindexed = new Set<S>();
  /** field -> value key -> subscribers. */
  readonly #byField = new Map<string, Map<string, Set<S>>>();
  #size = 0;

  get size(): number {
    return this.#size;
  }

  add(subscriber: S): void {
    this.#size++;
    const { clause } = subscriber;
    if (clause === undefined) {
      this.#unindexed.add(subscriber);
      return;
    }
    const byKey = this.#byField.get(clause.field) ?? new Map<string, Set<S>>();
    this.#byField.set(clause.field, byKey);
    for (const key of clause.keys) {
      const set = byKey.get(key) ?? new Set<S>();
      byKey.set(key, set);
      set.add(subscriber);
    }
  }

  delete(subscriber: S): void {
    this.#size--;
    const { clause } = subscriber;
    if (clause === undefined) {
      this.#unindexed.delete(subscriber);
      return;
    }
    const byKey = this.#byField.get(clause.field);
    for (const key of clause.keys) {
      const set = byKey?.get(key);
      set?.delete(subscriber);
      if (set?.size === 0) byKey?.delete(key);
    }
    if (byKey?.size === 0) this.#byField.delete(clause.field);
  }

  /** Every subscriber that could match one of `docs` (before and after a write); each once. */
  candidates(docs: readonly (Document | null | undefined)[]): Set<S> {
    const found = this.#unindexed.size === 0 ? new Set<S>() : new Set(this.#unindexed);
    for (const [field, byKey] of this.#byField) {
      for (const doc of docs) {
        if (doc === null || doc === undefined) continue;
        const keys = documentKeys(doc, field);
        if (keys === undefined) {
          for (const set of byKey.values()) for (const subscriber of set) found.add(subscriber);
          break;
        }
        for (const key of keys) for (const subscriber of byKey.get(key) ?? []) found.add(subscriber);
      }
    }
    return found;
  }

  /** Every subscriber, each once. */
  all(): Set<S> {
    const found = new Set(this.#unindexed);
    for (const byKey of this.#byField.values()) {
      for (const set of byKey.values()) for (const subscriber of set) found.add(subscriber);
    }
    return found;
  }
}
