import type { PopulateCollection, PopulateDocument } from './db';
import { idKey } from './ids';

/**
 * The fields of a document holding the ids of a join: `one` (`_id`, `company_id`) and, for
 * references, `many` (`company_ids`). Either may hold one id or an array: MongoDB matches both.
 */
interface IdFields {
  readonly one: string;
  readonly many?: string;
  /** More fields holding ids the same way (`companyId`, `companyIds`). */
  readonly more?: readonly string[];
}

/** One relation, reduced to what the batched join needs. */
export interface JoinPlan {
  readonly collection: PopulateCollection;
  /** Where a page document holds the ids it is joined by: `_id` for `$populate`, its references for `$fill`. */
  readonly ownerFields: IdFields;
  /** Where a related document holds the ids that link it to page documents. */
  readonly resultFields: IdFields;
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

/** Adds the ids `value` holds (one, or an array's elements; none when absent) to `ids`. */
function addIds(ids: unknown[], value: unknown): void {
  if (Array.isArray(value)) for (const item of value) ids.push(item);
  else if (value !== undefined) ids.push(value);
}

/** The ids a document holds in `fields`. */
function idsOf(doc: PopulateDocument, fields: IdFields): unknown[] {
  const ids: unknown[] = [];
  addIds(ids, doc[fields.one]);
  if (fields.many !== undefined) addIds(ids, doc[fields.many]);
  if (fields.more !== undefined) for (const field of fields.more) addIds(ids, doc[field]);
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

/** The lists being filled by one batch of results: the owners by key, each owner's list, its cap. */
interface Assignment {
  readonly byKey: OwnersByKey;
  readonly lists: PopulateDocument[][];
  readonly limit: number;
}

/** Gives `result` to the owners of `id` while their lists have room, once each (it is then their last entry). */
function giveTo(to: Assignment, result: PopulateDocument, id: unknown): void {
  const owners = ownersOf(to.byKey, id);
  if (owners === undefined) return;
  for (const i of owners) {
    const list = to.lists[i] as PopulateDocument[];
    if (list.length < to.limit && list[list.length - 1] !== result) list.push(result);
  }
}

/** {@link giveTo} for each id a reference field holds: one, or an array's elements (as MongoDB matches). */
function give(to: Assignment, result: PopulateDocument, value: unknown): void {
  if (Array.isArray(value)) for (const id of value) giveTo(to, result, id);
  else if (value !== undefined) giveTo(to, result, value);
}

/** Hands sorted results to the owners they reference, at most `limit` each, resetting the owners' lists first. */
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
  const to: Assignment = { byKey, lists, limit: plan.limit };
  // One load site per field: a field name that never changes at a site keeps V8's lookup fast.
  const { one, many, more } = plan.resultFields;
  for (const result of results) {
    give(to, result, result[one]);
    if (many !== undefined) give(to, result, result[many]);
    if (more !== undefined) for (const field of more) give(to, result, result[field]);
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
  const idsOfOwners = (owners: readonly number[]) => {
    const ids: unknown[] = [];
    for (const i of owners) for (const id of ownerIds[i] as unknown[]) ids.push(id);
    return ids;
  };
  let pending = docs.map((_, i) => i).filter((i) => (ownerKeys[i] as string[]).length > 0);
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
