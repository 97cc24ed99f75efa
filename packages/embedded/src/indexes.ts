/**
 * The indexes of one embedded collection: recorded like MongoDB's (names, conflicts), with
 * unique indexes enforced through a key -> document map, single-field ascending/descending
 * indexes kept as key -> documents maps for `$in` / equality lookups, text and 2dsphere
 * indexes consulted by `$text` / `$nearSphere`, and TTL indexes telling which documents have
 * expired.
 */
import type { Document, IndexDescription, IndexOptions, IndexSpec } from '@store/common';
import { isPlainObject } from '@store/common';
import { parseCollation } from './collation';
import {
  describedKey,
  describeIndex,
  ID_INDEX,
  isTextSpec,
  type ResolvedIndexOptions,
  textWeights,
} from './describe-index';
import { EmbeddedDbError } from './errors';
import { FieldIndex, isIndexableField, isIndexKeyable } from './field-index';
import { OrderedIndex, type Range } from './ordered-index';
import { fieldRanges } from './range-bounds';
import { createUniqueIndex, type UniqueIndex } from './unique-index';
import { idKey } from './values';

/** The distinct index keys of `values`, or undefined when one is not compared by key. */
function indexKeysOf(values: readonly unknown[]): string[] | undefined {
  const keys = new Set<string>();
  for (const value of values) {
    if (!isIndexKeyable(value)) return undefined;
    keys.add(idKey(value));
  }
  return [...keys];
}

/** Index keys of the value lists of one filter, by list. */
export type KeyMemo = Map<readonly unknown[], string[] | undefined>;

const KEY_KINDS: ReadonlySet<unknown> = new Set([1, -1, 'text', '2dsphere']);
const MAX_TTL_SECONDS = 2_147_483_647;

interface RecordedIndex {
  name: string;
  spec: IndexSpec;
  options: ResolvedIndexOptions;
  unique?: UniqueIndex;
}

function validateSpec(spec: unknown): asserts spec is IndexSpec {
  if (!isPlainObject(spec) || Object.keys(spec).length === 0) {
    throw new EmbeddedDbError('CannotCreateIndex', 'index key specification must be a non-empty object');
  }
  for (const [field, kind] of Object.entries(spec)) {
    const validField =
      field === '$**' || (field !== '' && !field.split('.').some((s) => s === '' || s.startsWith('$')));
    if (!validField || !KEY_KINDS.has(kind)) {
      throw new EmbeddedDbError('CannotCreateIndex', `bad index key "${field}": ${JSON.stringify(kind)}`);
    }
  }
}

function resolveOptions(spec: IndexSpec, options: IndexOptions): RecordedIndex['options'] {
  const ttl = options.expireAfterSeconds;
  if (ttl !== undefined) {
    const singleField = Object.keys(spec).length === 1 && !('_id' in spec);
    if (!Number.isInteger(ttl) || ttl < 0 || ttl > MAX_TTL_SECONDS || !singleField) {
      throw new EmbeddedDbError(
        'CannotCreateIndex',
        'expireAfterSeconds needs one non-_id field and 0..2^31-1',
      );
    }
  }
  const resolved: ResolvedIndexOptions = {
    unique: options.unique === true,
    sparse: options.sparse === true,
    expireAfterSeconds: ttl,
  };
  if (isTextSpec(spec)) resolved.text = resolveTextOptions(spec, options);
  const collation = resolveCollation(spec, options, resolved);
  if (collation) resolved.collation = collation;
  return resolved;
}

/**
 * An index's collation, checked: MongoDB's refusal of one on a text index; NotImplemented for a
 * unique one (the engine's unique keys compare strings binary). The index stays binary inside:
 * it answers only filters without a collation, and a query under one scans (collection.ts).
 */
function resolveCollation(
  spec: IndexSpec,
  options: IndexOptions,
  resolved: ResolvedIndexOptions,
): ResolvedIndexOptions['collation'] {
  const collation = parseCollation((options as { collation?: unknown }).collation);
  if (!collation) return undefined;
  if (isTextSpec(spec)) {
    throw new EmbeddedDbError(
      'CannotCreateIndex',
      `Index type 'text' does not support collation: ${JSON.stringify(collation.spec)}`,
    );
  }
  if (resolved.unique) {
    throw new EmbeddedDbError(
      'NotImplemented',
      'a unique index with a collation is not supported by the embedded engine',
    );
  }
  return { ...collation.spec };
}

/** A text index's weights and language options, MongoDB's defaults applied. */
function resolveTextOptions(
  spec: IndexSpec,
  options: IndexOptions,
): NonNullable<ResolvedIndexOptions['text']> {
  const { default_language = 'english', language_override = 'language' } = options;
  for (const [option, value] of Object.entries({ default_language, language_override })) {
    if (typeof value !== 'string' || value === '') {
      throw new EmbeddedDbError('CannotCreateIndex', `${option} must be a non-empty string`);
    }
  }
  return { weights: textWeights(spec), default_language, language_override };
}

const defaultName = (spec: IndexSpec): string =>
  Object.entries(spec)
    .map(([field, kind]) => `${field}_${kind}`)
    .join('_');

const sameJson = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/** Binary searches for insertion sequences, per document stored, past which a map of them is built. */
const SEARCHES_BEFORE_MAP = 1 / 32;

/** A range of an ordered index a filter pins, with how many documents it holds. */
export interface IndexRange {
  readonly index: OrderedIndex;
  readonly range: Range;
  readonly span: [number, number];
}

/** The index set of one collection. */
export class CollectionIndexes {
  readonly #indexes: RecordedIndex[] = [];
  /** Lookup maps of the single-field ascending/descending indexes, by field. */
  readonly #fields = new Map<string, FieldIndex>();
  /** Ordered indexes: `_id`, and each single-field ascending/descending index on a top-level field. */
  readonly #ordered = new Map<string, OrderedIndex>();
  /** Every document's insertion sequence, by key, once {@link sequenceOf} has searched enough. */
  #sequenceMap: Map<string, number> | undefined;
  /** Binary searches {@link sequenceOf} made while there is no map. */
  #searches = 0;
  /** The unique indexes and the TTL indexes of {@link #indexes}, kept as it changes (every write reads them). */
  #uniques: UniqueIndex[] = [];
  #ttl: ReadonlyArray<{ field: string; seconds: number }> = [];

  constructor() {
    this.#ordered.set('_id', new OrderedIndex('_id'));
  }

  /**
   * The insertion sequence of the stored document `doc` (of key `docKey`), which ties in an
   * ordered index keep, and candidates found by key are sorted by: kept in its `_id` index
   * entry, found there by binary search (0 when it is not stored). Once such searches add up to
   * a thirty-second of the documents (reads sorting many candidates, many writes), a map of every
   * document's sequence is built and kept from then on: a collection read by `_id` and by scans
   * never pays for one (a map entry per document).
   */
  sequenceOf(docKey: string, doc: Document): number {
    const known = this.#sequenceMap?.get(docKey);
    if (known !== undefined) return known;
    const ids = this.#ids();
    if (this.#sequenceMap === undefined && ++this.#searches > ids.size * SEARCHES_BEFORE_MAP) {
      this.#sequenceMap = this.#allSequences();
      return this.#sequenceMap.get(docKey) ?? 0;
    }
    return ids.sequenceOf(docKey, doc._id) ?? 0;
  }

  #ids(): OrderedIndex {
    return this.#ordered.get('_id') as OrderedIndex;
  }

  /** The insertion sequence of every stored document, by key. */
  #allSequences(): Map<string, number> {
    if (this.#sequenceMap) return this.#sequenceMap;
    const sequences = new Map<string, number>();
    const { keys, seqs } = this.#ids().columns;
    for (let at = 0; at < keys.length; at++) sequences.set(keys[at] as string, seqs[at] as number);
    return sequences;
  }

  /** {@link sequenceOf} for building an index over every document (one map for all, dropped after unless kept). */
  #sequences(): (docKey: string) => number {
    const sequences = this.#allSequences();
    return (docKey) => sequences.get(docKey) ?? 0;
  }

  /** The ordered index of `field` (`_id` always has one). */
  ordered(field: string): OrderedIndex | undefined {
    return this.#ordered.get(field);
  }

  /** Of the ranges `filter` pins on fields with an ordered index, the one holding the fewest documents. */
  narrowestRange(filter: Document): IndexRange | undefined {
    let best: IndexRange | undefined;
    for (const [field, range] of fieldRanges(filter)) {
      const index = this.#ordered.get(field);
      if (index === undefined) continue;
      const span = index.span(range);
      const size = span[1] - span[0] + index.multikey.size;
      if (best === undefined || size < best.span[1] - best.span[0] + best.index.multikey.size) {
        best = { index, range, span };
      }
    }
    return best;
  }

  /**
   * Builds the ordered indexes over documents loaded without {@link move} (a durable
   * database's open), in sequence from `first` in their order; `places` gives their places in
   * `_id` order.
   */
  rebuild(docs: Map<string, Document>, first: number, places?: Int32Array): void {
    this.#sequenceMap = undefined;
    this.#ordered.set('_id', OrderedIndex.inPlaces('_id', docs, places, first));
    for (const field of this.#ordered.keys()) {
      if (field !== '_id') this.#ordered.set(field, new OrderedIndex(field, docs, this.#sequences()));
    }
  }

  /** Records an index (building and checking a unique one over `docs`); returns its name. */
  create(spec: unknown, rawOptions: IndexOptions, docs: Iterable<[string, Document]>): string {
    validateSpec(spec);
    const options = resolveOptions(spec, rawOptions);
    const name = rawOptions.name ?? defaultName(spec);
    const key = describedKey(spec);
    // Two indexes may share a key pattern under different collations (and names).
    const existing =
      this.#indexes.find((index) => index.name === name) ??
      this.#indexes.find(
        (index) =>
          sameJson(describedKey(index.spec), key) && sameJson(index.options.collation, options.collation),
      );
    if (existing) return this.#reuse(existing, name, spec, options);
    if (isTextSpec(spec) && this.textFields()) {
      throw new EmbeddedDbError('IndexOptionsConflict', 'a collection can have only one text index');
    }
    const index: RecordedIndex = { name, spec, options };
    if (options.unique) index.unique = createUniqueIndex(spec, options.sparse, docs);
    this.#indexes.push(index);
    this.#changed();
    this.#addFieldIndex(spec, docs);
    return name;
  }

  #addFieldIndex(spec: IndexSpec, docs: Iterable<[string, Document]>): void {
    const [first, ...rest] = Object.entries(spec);
    if (!first || rest.length > 0) return;
    const [field, kind] = first;
    if ((kind === 1 || kind === -1) && isIndexableField(field) && !this.#fields.has(field)) {
      this.#fields.set(field, new FieldIndex(field, docs));
      this.#ordered.set(field, new OrderedIndex(field, docs, this.#sequences()));
    }
  }

  /**
   * Keys of the only documents whose `field` can equal one of `values` (`$in` / `$eq`), from
   * its single-field index; undefined without one, or when a value is not compared by key.
   * `memo` keeps the index keys of each value list for one filter (`$or` clauses share lists).
   * A value repeated in the list is looked up once.
   */
  lookup(field: string, values: readonly unknown[], memo?: KeyMemo): Set<string> | undefined {
    const index = this.#fields.get(field);
    if (!index) return undefined;
    let keys = memo?.get(values);
    if (keys === undefined && !memo?.has(values)) {
      keys = indexKeysOf(values);
      memo?.set(values, keys);
    }
    return keys && index.lookup(keys);
  }

  /**
   * The answer to creating an index again, as MongoDB decides it: same name and other keys is
   * 86; same keys (any two text indexes on the same other keys) under another name or with
   * other options (text: other fields or languages) is 85.
   */
  #reuse(existing: RecordedIndex, name: string, spec: IndexSpec, options: RecordedIndex['options']): string {
    if (!sameJson(describedKey(existing.spec), describedKey(spec))) {
      throw new EmbeddedDbError('IndexKeySpecsConflict', `an index named ${name} exists with different keys`);
    }
    if (existing.name !== name || !sameJson(existing.options, options)) {
      throw new EmbeddedDbError(
        'IndexOptionsConflict',
        `index ${existing.name} exists with different options`,
      );
    }
    return name;
  }

  /** Every index as MongoDB's `listIndexes` describes it, `_id_` first. */
  describe(): IndexDescription[] {
    return [
      { ...ID_INDEX },
      ...this.#indexes.map((index) => describeIndex(index.name, index.spec, index.options)),
    ];
  }

  /** Drops the index `name`: code 27 when there is none, 72 for `_id_`. */
  drop(name: string): void {
    if (name === ID_INDEX.name) throw new EmbeddedDbError('InvalidOptions', 'cannot drop _id index');
    const at = this.#indexes.findIndex((index) => index.name === name);
    const [dropped] = at === -1 ? [] : this.#indexes.splice(at, 1);
    if (!dropped) throw new EmbeddedDbError('IndexNotFound', `index not found with name [${name}]`);
    this.#changed();
    const [field, ...rest] = Object.keys(dropped.spec);
    if (field === undefined || rest.length > 0 || !this.#fields.has(field)) return;
    const stillIndexed = this.#indexes.some((index) => {
      const keys = Object.entries(index.spec);
      return keys.length === 1 && keys[0]?.[0] === field && (keys[0][1] === 1 || keys[0][1] === -1);
    });
    if (!stillIndexed) {
      this.#fields.delete(field);
      this.#ordered.delete(field);
    }
  }

  /** Fields of the text index (`['$**']` for a wildcard one), or undefined without a text index. */
  textFields(): string[] | undefined {
    const index = this.#indexes.find((candidate) => Object.values(candidate.spec).includes('text'));
    if (!index) return undefined;
    return Object.entries(index.spec)
      .filter(([, kind]) => kind === 'text')
      .map(([field]) => field);
  }

  /** True when `field` has a 2dsphere index. */
  hasGeoIndex(field: string): boolean {
    return this.#indexes.some((index) => index.spec[field] === '2dsphere');
  }

  /** TTL indexes as `{ field, seconds }`. */
  ttl(): ReadonlyArray<{ field: string; seconds: number }> {
    return this.#ttl;
  }

  /** Keeps the unique and TTL indexes after an index is created or dropped. */
  #changed(): void {
    this.#uniques = this.#indexes.flatMap((index) => (index.unique ? [index.unique] : []));
    this.#ttl = this.#indexes.flatMap((index) => {
      const field = Object.keys(index.spec)[0];
      const seconds = index.options.expireAfterSeconds;
      return field !== undefined && seconds !== undefined ? [{ field, seconds }] : [];
    });
  }

  /**
   * Moves the document `key` (of insertion sequence `seq`) from `before` (absent on insert) to
   * `after` (absent on delete) in every index, or throws a duplicate-key error (of a unique
   * index) and changes nothing.
   */
  move(
    key: string,
    before: Document | undefined,
    after: Document | undefined,
    seq = before ? this.sequenceOf(key, before) : 0,
  ): void {
    const uniques = this.#uniques;
    if (after) for (const unique of uniques) unique.check(key, after);
    for (const index of uniques) {
      if (before) index.remove(key, before);
      if (after) index.add(key, after);
    }
    for (const index of this.#fields.values()) {
      if (before) index.remove(key, before);
      if (after) index.add(key, after);
    }
    for (const index of this.#ordered.values()) {
      if (before && after) index.move(key, before, after, seq);
      else if (before) index.remove(key, before, seq);
      else if (after) index.add(key, after, seq);
    }
    if (!before && after) this.#sequenceMap?.set(key, seq);
    else if (before && !after) this.#sequenceMap?.delete(key);
  }

  /**
   * Runs `inserts` (a batch: {@link move}s of new documents only) with every ordered index adding
   * in bulk: what lands inside an index is sorted and merged once, at the end.
   */
  addingMany<T>(inserts: () => T): T {
    let run = inserts;
    for (const index of this.#ordered.values()) {
      const inner = run;
      run = () => index.addingMany(inner);
    }
    return run();
  }

  /** Removes the documents of `removed` from every index (as {@link move} to nothing does, in one pass per ordered index). */
  removeAll(removed: ReadonlyArray<[key: string, doc: Document]>): void {
    for (const index of [...this.#uniques, ...this.#fields.values()]) {
      for (const [key, doc] of removed) index.remove(key, doc);
    }
    const sequenced = removed.map(
      ([key, doc]) => [key, doc, this.sequenceOf(key, doc)] as [string, Document, number],
    );
    for (const index of this.#ordered.values()) index.removeAll(sequenced);
    for (const [key] of removed) this.#sequenceMap?.delete(key);
  }
}
