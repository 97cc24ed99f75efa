import type { PopulateCollection, PopulateDocument } from './db';
import { idKey } from './ids';

/** One relation, reduced to what the batched join needs. */
export interface JoinPlan {
  readonly collection: PopulateCollection;
  /**
   * Fields of a page document holding the ids it is joined by: `_id` for `$populate`, its
   * reference fields for `$fill`. A field may hold one id or an array of them.
   */
  readonly ownerFields: readonly string[];
  /** Fields of a related document holding the ids that link it to page documents. */
  readonly resultFields: readonly string[];
  /** Filter selecting related documents for these raw owner ids. */
  readonly relationFilter: (values: unknown[]) => PopulateDocument;
  /** Further filters ANDed in (constraint `match`, access rules). */
  readonly filters: readonly PopulateDocument[];
  readonly sort: Readonly<Record<string, 1 | -1>>;
  /** Related documents kept per page document. */
  readonly limit: number;
  /** Batched rounds before one query per starved page document. */
  readonly batchRounds: number;
}

/** The ids a document holds in `fields` (array elements one by one; absent fields give none). */
function idsOf(doc: PopulateDocument, fields: readonly string[]): unknown[] {
  const ids: unknown[] = [];
  for (const field of fields) {
    const value = doc[field];
    if (Array.isArray(value)) for (const item of value) ids.push(item);
    else if (value !== undefined) ids.push(value);
  }
  return ids;
}

/** Page documents by the join key ({@link idKey}) of each id they hold. */
type OwnersByKey = Map<string, number[]>;

/**
 * The page documents an id links to. A string is first tried as it is: it equals a key only
 * when it is that key's canonical form, so the pattern test of {@link idKey} is paid only for
 * other forms (an ObjectId, a number, upper-case hex) and for ids no page document holds.
 */
function ownersOf(byKey: OwnersByKey, id: unknown): number[] | undefined {
  if (typeof id === 'string') {
    const owners = byKey.get(id);
    if (owners !== undefined) return owners;
  }
  const key = idKey(id);
  return key === undefined || key === id ? undefined : byKey.get(key);
}

function query(plan: JoinPlan, values: unknown[], limit: number): Promise<PopulateDocument[]> {
  const filter =
    plan.filters.length === 0
      ? plan.relationFilter(values)
      : { $and: [plan.relationFilter(values), ...plan.filters] };
  return plan.collection.find(filter, { sort: { ...plan.sort }, limit }).toArray();
}

/**
 * Hands sorted results to the owners they reference, at most `limit` each, resetting the
 * owners' lists first. A result referencing one owner twice is kept once: it is then that
 * list's last entry.
 */
function assign(
  plan: JoinPlan,
  owners: readonly number[],
  ownerKeys: readonly (readonly string[])[],
  lists: PopulateDocument[][],
  results: readonly PopulateDocument[],
): void {
  const byKey: OwnersByKey = new Map();
  for (const i of owners) {
    lists[i] = [];
    for (const key of ownerKeys[i] as readonly string[]) {
      const same = byKey.get(key);
      if (same === undefined) byKey.set(key, [i]);
      else same.push(i);
    }
  }
  const give = (result: PopulateDocument, id: unknown): void => {
    for (const i of ownersOf(byKey, id) ?? []) {
      const list = lists[i] as PopulateDocument[];
      if (list.length < plan.limit && list[list.length - 1] !== result) list.push(result);
    }
  };
  for (const result of results) {
    for (const field of plan.resultFields) {
      const value = result[field];
      if (Array.isArray(value)) for (const id of value) give(result, id);
      else if (value !== undefined) give(result, value);
    }
  }
}

/** The distinct join keys of `ids` (ids of kinds that never join have none). */
function keysOf(ids: readonly unknown[]): string[] {
  if (ids.length === 1) {
    const key = idKey(ids[0]);
    return key === undefined ? [] : [key];
  }
  const keys = new Set<string>();
  for (const id of ids) {
    const key = idKey(id);
    if (key !== undefined) keys.add(key);
  }
  return [...keys];
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
  const ownerIds = docs.map((doc) => idsOf(doc, plan.ownerFields));
  const ownerKeys = ownerIds.map(keysOf);
  const lists: PopulateDocument[][] = docs.map(() => []);
  const idsOfOwners = (owners: readonly number[]) => owners.flatMap((i) => ownerIds[i] as unknown[]);
  let pending = ownerKeys.flatMap((keys, i) => (keys.length > 0 ? [i] : []));
  for (let round = 0; pending.length > 0 && round < plan.batchRounds; round++) {
    const bound = plan.limit * pending.length;
    const results = await query(plan, idsOfOwners(pending), bound);
    assign(plan, pending, ownerKeys, lists, results);
    if (results.length < bound) return lists;
    pending = pending.filter((i) => (lists[i]?.length ?? 0) < plan.limit);
  }
  await Promise.all(
    pending.map(async (i) =>
      assign(plan, [i], ownerKeys, lists, await query(plan, idsOfOwners([i]), plan.limit)),
    ),
  );
  return lists;
}
