import type { PopulateDb, PopulateDocument } from './db';
import { PopulateError } from './error-codes';
import { omitFields } from './fields';
import { childrenFilter, parentsFilter } from './filters';
import { batchedJoin, type JoinPlan } from './join';
import { referenceFields } from './naming';
import { type RelationMatch, type ResolvedPopulateOptions, resolvePopulateOptions } from './options';
import { type PlannedRelation, planRelations } from './relations';

/** What the caller decides about one related resource for this request. */
export interface RelationScope {
  /** Collection holding the resource (core's `resolveCollection`). @default the resource name */
  readonly collection?: string;
  /** Filter ANDed into the relation's query, e.g. the resource's read access rule. */
  readonly filter?: PopulateDocument;
  /** Fields removed from every related document (dotted paths allowed), after `afterRead`. */
  readonly hidden?: readonly string[];
  /** Reshapes the related documents (each once, however many documents it joins), e.g. core's `afterRead` hook. */
  readonly afterRead?: (documents: PopulateDocument[]) => Promise<PopulateDocument[]>;
}

/** One request's relations over a page of documents. */
export interface RelationRequest<C = unknown> {
  readonly db: PopulateDb;
  /** Resource the page came from. */
  readonly resource: string;
  /** Child resources to attach (`$populate`). */
  readonly populate?: readonly string[];
  /** Parent resources to attach (`$fill`). */
  readonly fill?: readonly string[];
  /** Request context handed, unread, to `match` functions. */
  readonly context?: C;
  /**
   * Called once per related resource. Throw to reject it (unknown, internal, forbidden);
   * return its collection, access filter and hidden fields.
   */
  readonly scope?: (resource: string) => RelationScope | undefined | Promise<RelationScope | undefined>;
  /** Fields removed from the page documents after the join (join keys `$select` left out). */
  readonly strip?: readonly string[];
}

/**
 * The filter a constraint's `match` gives for one request (a function of `context` is called),
 * or `undefined` without one; a `match` giving anything but a filter object is an
 * `invalid_constraint` error naming `relation`.
 */
export async function relationMatch<C>(
  match: RelationMatch<C> | undefined,
  context: C,
  relation: string,
): Promise<PopulateDocument | undefined> {
  if (match === undefined) return undefined;
  const filter = typeof match === 'function' ? await match(context) : match;
  if (typeof filter !== 'object' || filter === null || Array.isArray(filter)) {
    throw new PopulateError('invalid_constraint', 'a population match must give a filter object', {
      relation,
    });
  }
  return filter;
}

/** Which fields hold the ids joining the page to the relation, and the filter of its query. */
function linkage<C>(
  request: RelationRequest<C>,
  relation: PlannedRelation,
  options: ResolvedPopulateOptions<C>,
): Pick<JoinPlan, 'ownerFields' | 'resultFields' | 'relationFilter'> {
  if (relation.kind === 'populate') {
    const { one, many } = referenceFields(request.resource, options.singular);
    return {
      ownerFields: { one: '_id' },
      resultFields: { one, many },
      relationFilter: (values) => childrenFilter(request.resource, values, options),
    };
  }
  const { one, many } = referenceFields(relation.name, options.singular);
  return { ownerFields: { one, many }, resultFields: { one: '_id' }, relationFilter: parentsFilter };
}

/** A filter that can leave documents out: present and not empty (`{}` matches everything). */
const isRestrictive = (filter: PopulateDocument | undefined): filter is PopulateDocument =>
  filter !== undefined && Object.keys(filter).length > 0;

async function relate<C>(
  docs: readonly PopulateDocument[],
  request: RelationRequest<C>,
  relation: PlannedRelation,
  options: ResolvedPopulateOptions<C>,
): Promise<PopulateDocument[][]> {
  const scope = (await request.scope?.(relation.name)) ?? {};
  const constraint = options.constraint(request.resource, relation.name);
  const match = await relationMatch(constraint.match, request.context as C, relation.name);
  const plan: JoinPlan = {
    ...linkage(request, relation, options),
    collection: request.db.collection(scope.collection ?? relation.name),
    filters: [match, scope.filter].filter(isRestrictive),
    sort: constraint.sort,
    limit: constraint.limit,
    batchRounds: options.batchRounds,
  };
  const lists = await batchedJoin(plan, docs);
  return publicCopies(lists, scope);
}

/**
 * The related documents as the caller may show them: reshaped by the scope's `afterRead` (each
 * document once, however many lists it is in) and, when fields are hidden, one copy of each
 * without them, shared by every list it is in. With neither, the lists as the database gave them
 * (its documents are fresh for each query).
 */
async function publicCopies(
  lists: PopulateDocument[][],
  scope: RelationScope,
): Promise<PopulateDocument[][]> {
  const hidden = scope.hidden ?? [];
  if (scope.afterRead === undefined && hidden.length === 0) return lists;
  const unique = [...new Set(lists.flat())];
  const shaped = scope.afterRead === undefined ? unique : await scope.afterRead(unique);
  if (!Array.isArray(shaped) || shaped.length !== unique.length) {
    throw new TypeError('a relation scope afterRead must return one document per document it receives');
  }
  const shown = (doc: PopulateDocument) => (hidden.length === 0 ? doc : omitFields(doc, hidden));
  const copies = new Map(unique.map((doc, i) => [doc, shown(shaped[i] as PopulateDocument)]));
  return lists.map((list) => list.map((doc) => copies.get(doc) as PopulateDocument));
}

/**
 * Refuses an answer that would carry more than `maxDocuments` related documents (each time it
 * appears: a child under 300 parents is sent 300 times). Checked on the joined lists, which hold
 * references only, before any copy or serialization.
 */
function assertWithinBound(joined: readonly PopulateDocument[][][], maxDocuments: number): void {
  let count = 0;
  for (const lists of joined) for (const list of lists) count += list.length;
  if (count > maxDocuments) {
    throw new PopulateError(
      'too_many_documents',
      `This answer would carry ${count} related documents, more than populate.maxDocuments (${maxDocuments}): ` +
        'ask for fewer documents ($limit), fewer relations, or use the nested route with paging.',
      { count, maxDocuments },
    );
  }
}

/**
 * Attaches `$populate` children and `$fill` parents to a page of documents of
 * `request.resource`: one query per relation for the whole page (more only when a per-document
 * limit overflows, see README), an in-memory join across id kinds, constraints from
 * `options.population`, the caller's scope (collection, access filter, hidden fields).
 * Returns new documents; the input documents are never mutated.
 */
export async function attachRelations<C = unknown>(
  docs: readonly PopulateDocument[],
  request: RelationRequest<C>,
  options: ResolvedPopulateOptions<C> = resolvePopulateOptions<C>(),
): Promise<PopulateDocument[]> {
  const relations = planRelations(request.populate, request.fill, options.maxRelations);
  const strip = request.strip ?? [];
  if (docs.length === 0 || relations.length === 0) return docs.map((doc) => omitFields(doc, strip));
  const joined = await Promise.all(relations.map((relation) => relate(docs, request, relation, options)));
  assertWithinBound(joined, options.maxDocuments);
  return docs.map((doc, i) => {
    const out = omitFields(doc, strip);
    for (let r = 0; r < relations.length; r++) {
      out[(relations[r] as PlannedRelation).name] = joined[r]?.[i] ?? [];
    }
    return out;
  });
}
