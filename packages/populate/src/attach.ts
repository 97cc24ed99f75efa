import type { PopulateDb, PopulateDocument } from './db';
import { PopulateError } from './error-codes';
import { hideFields, omitFields } from './fields';
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

/** Which fields hold the ids joining documents of `resource` to the relation, and the filter of its query. */
function linkage<C>(
  resource: string,
  relation: PlannedRelation,
  options: ResolvedPopulateOptions<C>,
): Pick<JoinPlan, 'ownerFields' | 'resultFields' | 'relationFilter'> {
  const referenced = relation.kind === 'populate' ? resource : relation.name;
  const { one, many, camel } = referenceFields(referenced, options.singular, options.camelCase);
  const references = { one, many, ...(camel === undefined ? {} : { more: [camel.one, camel.many] }) };
  if (relation.kind === 'populate') {
    return {
      ownerFields: { one: '_id' },
      resultFields: references,
      relationFilter: (values) => childrenFilter(resource, values, options),
    };
  }
  return { ownerFields: references, resultFields: { one: '_id' }, relationFilter: parentsFilter };
}

/** A filter that can leave documents out: present and not empty (`{}` matches everything). */
const isRestrictive = (filter: PopulateDocument | undefined): filter is PopulateDocument =>
  filter !== undefined && Object.keys(filter).length > 0;

/** One relation joined to a list of documents: for each, its related documents as shown. */
interface Joined {
  lists: PopulateDocument[][];
  /** Related documents in the lists at every level, each time it appears. */
  count: number;
}

function tooMany(count: number, maxDocuments: number): PopulateError {
  return new PopulateError(
    'too_many_documents',
    `This answer would carry ${count} related documents, more than populate.maxDocuments (${maxDocuments}): ` +
      'ask for fewer documents ($limit), fewer relations, or use the nested route with paging.',
    { count, maxDocuments },
  );
}

/**
 * Joins `relation` to `docs` (documents of `resource`): one query (see README for when a
 * per-document limit needs more), then the relation's own relations over the related
 * documents found, each once however many lists it is in (one query per resource per level).
 * The related documents are shown as the scope says (afterRead, hidden fields), joined on
 * what the database gave. Refuses, before any copy, an answer past `maxDocuments`.
 */
async function relate<C>(
  docs: readonly PopulateDocument[],
  resource: string,
  relation: PlannedRelation,
  request: RelationRequest<C>,
  options: ResolvedPopulateOptions<C>,
): Promise<Joined> {
  const scope = (await request.scope?.(relation.name)) ?? {};
  const constraint = options.constraint(resource, relation.name);
  const match = await relationMatch(constraint.match, request.context as C, relation.name);
  const plan: JoinPlan = {
    ...linkage(resource, relation, options),
    collection: request.db.collection(scope.collection ?? relation.name),
    filters: [match, scope.filter].filter(isRestrictive),
    sort: constraint.sort,
    limit: constraint.limit,
    batchRounds: options.batchRounds,
  };
  const lists = await batchedJoin(plan, docs);
  let count = 0;
  for (const list of lists) count += list.length;
  if (count > options.maxDocuments) throw tooMany(count, options.maxDocuments);
  const unique = [...new Set(lists.flat())];
  const nested = await Promise.all(
    relation.relations.map((inner) => relate(unique, relation.name, inner, request, options)),
  );
  if (nested.length > 0) {
    const below = new Map<PopulateDocument, number>();
    for (const [j, doc] of unique.entries()) {
      below.set(
        doc,
        nested.reduce((sum, inner) => sum + (inner.lists[j]?.length ?? 0), 0),
      );
    }
    for (const list of lists) for (const doc of list) count += below.get(doc) ?? 0;
    if (count > options.maxDocuments) throw tooMany(count, options.maxDocuments);
  }
  const shown = await shownCopies(unique, scope);
  if (nested.length > 0) {
    for (const [j, doc] of unique.entries()) {
      const copy = { ...(shown.get(doc) as PopulateDocument) };
      for (const [r, inner] of relation.relations.entries()) copy[inner.name] = nested[r]?.lists[j] ?? [];
      shown.set(doc, copy);
    }
  }
  return { lists: lists.map((list) => list.map((doc) => shown.get(doc) as PopulateDocument)), count };
}

/**
 * The related documents as the caller may show them, by document as the database gave it:
 * reshaped by the scope's `afterRead` (each once, however many lists it is in) and, when
 * fields are hidden, one copy of each without them, shared by every list it is in. With
 * neither, the documents themselves (the database's are fresh for each query).
 */
async function shownCopies(
  unique: PopulateDocument[],
  scope: RelationScope,
): Promise<Map<PopulateDocument, PopulateDocument>> {
  const hidden = scope.hidden ?? [];
  if (scope.afterRead === undefined && hidden.length === 0) return new Map(unique.map((doc) => [doc, doc]));
  const shaped = scope.afterRead === undefined ? unique : await scope.afterRead(unique);
  if (!Array.isArray(shaped) || shaped.length !== unique.length) {
    throw new TypeError('a relation scope afterRead must return one document per document it receives');
  }
  const shown = (doc: PopulateDocument) => (hidden.length === 0 ? doc : hideFields(doc, hidden));
  return new Map(unique.map((doc, i) => [doc, shown(shaped[i] as PopulateDocument)]));
}

/**
 * Attaches `$populate` children and `$fill` parents (`a.b` paths: the relation's own
 * relations, up to 3 levels) to a page of documents of `request.resource`: one query per
 * relation per level for the whole page (more only when a per-document limit overflows, see
 * README), an in-memory join across id kinds, constraints from `options.population` at every
 * level, the caller's scope (collection, access filter, hidden fields) for every resource.
 * Returns new documents; the input documents are never mutated. Past `maxDocuments` related
 * documents (counted at every level, each time one appears), a 400 `too_many_documents`.
 */
export async function attachRelations<C = unknown>(
  docs: readonly PopulateDocument[],
  request: RelationRequest<C>,
  options: ResolvedPopulateOptions<C> = resolvePopulateOptions<C>(),
): Promise<PopulateDocument[]> {
  const relations = planRelations(request.populate, request.fill, options.maxRelations);
  const strip = request.strip ?? [];
  if (docs.length === 0 || relations.length === 0) return docs.map((doc) => omitFields(doc, strip));
  const joined = await Promise.all(
    relations.map((relation) => relate(docs, request.resource, relation, request, options)),
  );
  const count = joined.reduce((sum, each) => sum + each.count, 0);
  if (count > options.maxDocuments) throw tooMany(count, options.maxDocuments);
  return docs.map((doc, i) => {
    const out = omitFields(doc, strip);
    for (const [r, relation] of relations.entries()) out[relation.name] = joined[r]?.lists[i] ?? [];
    return out;
  });
}
