import type { PopulateCollection, PopulateDocument } from './db';
import { idKey } from './ids';

/** One relation, reduced to what the batched join needs. */
export interface JoinPlan {
  readonly collection: PopulateCollection;
  /** Raw id values of one page document (its `_id`, or its references). */
  readonly ownerValues: (doc: PopulateDocument) => unknown[];
  /** Filter selecting related documents for these raw values. */
  readonly relationFilter: (values: unknown[]) => PopulateDocument;
  /** Raw values on a related document that link it to page documents. */
  readonly resultValues: (doc: PopulateDocument) => unknown[];
  /** Further filters ANDed in (constraint `match`, access rules). */
  readonly filters: readonly PopulateDocument[];
  readonly sort: Readonly<Record<string, 1 | -1>>;
  /** Related documents kept per page document. */
  readonly limit: number;
  /** Batched rounds before one query per starved page document. */
  readonly batchRounds: number;
}

/** A join key of a raw id ({@link idKey}). */
type KeyOf = (value: unknown) => string | undefined;

/**
 * {@link idKey}, remembered for the strings of one join: a parent's id recurs on each of its
 * children, and a key costs a pattern test. Lives as long as one `batchedJoin` call.
 */
function rememberedIdKey(): KeyOf {
  const known = new Map<string, string | undefined>();
  return (value) => {
    if (typeof value !== 'string') return idKey(value);
    let key = known.get(value);
    if (key === undefined) {
      key = idKey(value);
      known.set(value, key);
    }
    return key;
  };
}

function keysOf(values: unknown[], keyOf: KeyOf): Set<string> {
  const keys = new Set<string>();
  for (const value of values) {
    const key = keyOf(value);
    if (key !== undefined) keys.add(key);
  }
  return keys;
}

function query(plan: JoinPlan, values: unknown[], limit: number): Promise<PopulateDocument[]> {
  const filter =
    plan.filters.length === 0
      ? plan.relationFilter(values)
      : { $and: [plan.relationFilter(values), ...plan.filters] };
  return plan.collection.find(filter, { sort: { ...plan.sort }, limit }).toArray();
}

/** The owners a related document references (each once, in the order its references name them). */
function ownersOf(plan: JoinPlan, byKey: Map<string, number[]>, keyOf: KeyOf, result: PopulateDocument) {
  const values = plan.resultValues(result);
  if (values.length === 1) {
    // One reference: one key, whose owners are distinct already.
    const key = keyOf(values[0]);
    return (key === undefined ? undefined : byKey.get(key)) ?? [];
  }
  const matched: number[] = [];
  for (const value of values) {
    const key = keyOf(value);
    const owners = key === undefined ? undefined : byKey.get(key);
    if (owners === undefined) continue;
    for (const i of owners) if (!matched.includes(i)) matched.push(i);
  }
  return matched;
}

/** Hands sorted results to the owners they reference, at most `limit` each, resetting their lists. */
function assign(
  plan: JoinPlan,
  keyOf: KeyOf,
  owners: number[],
  ownerKeys: Set<string>[],
  lists: PopulateDocument[][],
  results: PopulateDocument[],
): void {
  const byKey = new Map<string, number[]>();
  for (const i of owners) {
    lists[i] = [];
    for (const key of ownerKeys[i] ?? []) {
      const same = byKey.get(key);
      if (same === undefined) byKey.set(key, [i]);
      else same.push(i);
    }
  }
  for (const result of results) {
    for (const i of ownersOf(plan, byKey, keyOf, result)) {
      const list = lists[i];
      if (list !== undefined && list.length < plan.limit) list.push(result);
    }
  }
}

/**
 * Batched join: one query for the whole page, bounded by `limit * owners`, sorted, then an
 * in-memory join keeping at most `limit` per owner. When the bound is hit, owners that got
 * their `limit` are exact (the sort is global); the others are asked again in one batch,
 * up to `batchRounds`, then with one query each. Returns one list per page document.
 */
export async function batchedJoin(
  plan: JoinPlan,
  docs: readonly PopulateDocument[],
): Promise<PopulateDocument[][]> {
  const keyOf = rememberedIdKey();
  const ownerKeys = docs.map((doc) => keysOf(plan.ownerValues(doc), keyOf));
  const lists: PopulateDocument[][] = docs.map(() => []);
  const valuesOf = (owners: number[]) => owners.flatMap((i) => plan.ownerValues(docs[i] ?? {}));
  let pending = ownerKeys.flatMap((keys, i) => (keys.size > 0 ? [i] : []));
  for (let round = 0; pending.length > 0 && round < plan.batchRounds; round++) {
    const bound = plan.limit * pending.length;
    const results = await query(plan, valuesOf(pending), bound);
    assign(plan, keyOf, pending, ownerKeys, lists, results);
    if (results.length < bound) return lists;
    pending = pending.filter((i) => (lists[i]?.length ?? 0) < plan.limit);
  }
  await Promise.all(
    pending.map(async (i) =>
      assign(plan, keyOf, [i], ownerKeys, lists, await query(plan, valuesOf([i]), plan.limit)),
    ),
  );
  return lists;
}
