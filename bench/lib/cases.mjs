// The benchmark cases: for each, the data set it runs on, the request each contender answers
// (the store's query language, the hand-written routes of the baseline and the floor,
// json-server 0.17's and v1's syntaxes, Feathers'; the limit and the `store` command answer the
// store's requests) and a digest of the answer, compared across contenders before measuring so
// they really do the same work. A contender that cannot express a case's query is `null` there,
// and the case's `measures` says why.
import { encodeCursor } from '@store/query';
import { DATASETS, INDEXED, sampleIds } from './data.mjs';
import { roomOf } from './subscribers.mjs';

/** Query strings the store answers; the baseline compiles the same strings once at start-up. */
export const QUERIES = {
  list: 'n:gt=500&tags:in[]=red&tags:in[]=blue&$sort=-n&$limit=20',
  count: 'n:gt=500&tags:in[]=red&tags:in[]=blue&$count=1',
  populate: '$populate=employees&$limit=50',
  /**
   * A plain range with a sort: issue 19's independent measurement (`n:gte=5001` over `n` in
   * 0..9,999) scaled to these items, whose `n` is 0..999: half the documents match.
   */
  range: 'n:gte=501&$sort=-n&$limit=20',
  /** An unindexed equality on `n` (0..999): 7 of the 10,000 items, fewer than the page. */
  equality: 'n=42&$limit=20',
  /** A substring of `name` (`item-<i>`): 19 of the 10,000 items (`item-999`, `item-1999`, ...). */
  contains: 'name:contains=999&$limit=20',
};

/** json-server 0.17 has `_gte` but no `_gt`: `n` is an integer, so `n_gte=501` is `n:gt=500`. */
const JSON_SERVER_FILTER = 'n_gte=501&tags_like=red%7Cblue';
const JSON_SERVER_RANGE = 'n_gte=501&_sort=n&_order=desc&_limit=20';
/**
 * json-server v1: `f:op=v` filters, `_sort=-f`, and pages by `_page`/`_per_page` only (no
 * `_limit`), answering `{ first, prev, next, last, pages, items, data }`. Its `in` compares the
 * whole field and its `contains` reads strings only, so no filter of it matches an element of an
 * array: `tags:in` of `list-filter` and `count` cannot be said.
 */
const JSON_SERVER_V1_RANGE = 'n:gte=501&_sort=-n&_page=1&_per_page=20';
/**
 * Feathers: `f[$op]=v`, `$sort[f]=-1`, `$limit` (a list answers `{ total, limit, skip, data }`,
 * so `$limit=0` counts); its `$in` matches an element of an array, as the store's `tags:in` does.
 */
const FEATHERS_FILTER = 'n[$gt]=500&tags[$in][]=red&tags[$in][]=blue';
const FEATHERS_RANGE = 'n[$gte]=501&$sort[n]=-1&$limit=20';
/** The equality and contains cases in json-server 0.17's, v1's and Feathers' syntaxes. */
const PEER_EQUALITY = {
  jsonServer: 'n=42&_limit=20',
  jsonServerV1: 'n=42&_page=1&_per_page=20',
  feathers: 'n=42&$limit=20',
};
/**
 * json-server 0.17's `_like` is a case-insensitive regular expression, v1's `contains` a
 * case-insensitive substring; Feathers' memory service matches by `$regex` (the `operators` it
 * is given, feathers.mjs): `999` means the same substring in each.
 */
const PEER_CONTAINS = {
  jsonServer: 'name_like=999&_limit=20',
  jsonServerV1: 'name:contains=999&_page=1&_per_page=20',
  feathers: 'name[$regex]=999&$limit=20',
};
/** Why the hand-written contenders sit out a case: their routes run the other cases' queries only. */
const NO_HAND_WRITTEN = 'the hand-written baseline and floor, which have no route for it, left out';
/** Why json-server v1 sits out the `tags:in` cases. */
const NO_V1_ARRAY_MATCH = 'json-server v1, which has no filter on an element of an array, left out';

/** The body every `create` request posts. */
export const NEW_ITEM = { name: 'new', n: 42, tags: ['red', 'green'], price: 9.99, active: true };
const post = (path) => ({
  method: 'POST',
  path,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(NEW_ITEM),
});

/** Idle event streams of the realtime case, one per room (`/items?room=room-<i>`). */
const SUBSCRIBERS = 1000;

/**
 * `POST /items` of `NEW_ITEM` with a `room`: the rooms of the idle streams in turn (one counter
 * for every connection), so each created item matches exactly one stream, which is sent its event.
 */
function postToRooms(path) {
  let created = 0;
  const body = (i) => JSON.stringify({ ...NEW_ITEM, room: roomOf(i, SUBSCRIBERS) });
  const request = { method: 'POST', path, headers: { 'content-type': 'application/json' } };
  return {
    ...request,
    body: body(0),
    requests: [{ ...request, setupRequest: (spec) => ({ ...spec, body: body(created++) }) }],
  };
}

/**
 * The store's request: the store mounted in Express, the `store` command's own server (`store
 * serve`, which answers `id` for `_id`: the digests read either) and the limit (which answers the
 * store's bytes for it).
 */
const storeAndLimit = (spec) => ({ store: spec, storeCli: spec, limit: spec });
/** The hand-written routes' request: the same-engine baseline's and the mingo floor's. */
const handWritten = (spec) => ({ baseline: spec, floor: spec });

const json = (body) => JSON.parse(body);
const idOf = (doc) => doc._id ?? doc.id;
/** The documents of a list: a bare array, or the `data` of a page (json-server v1, Feathers). */
const docsOf = (body) => {
  const answer = json(body);
  return Array.isArray(answer) ? answer : answer.data;
};
const listDigest = (_contender, { body }) => docsOf(body).map((doc) => doc.n);
const populateDigest = (_contender, { body }) =>
  docsOf(body).map((company) => [company.name, company.employees.map((e) => idOf(e)).sort()]);
/** A created document: its name, and whether it was given an id (Feathers' memory ids are numbers). */
const createDigest = (_contender, { status, body }) => [
  status,
  json(body).name,
  ['string', 'number'].includes(typeof idOf(json(body))),
];
const getDigest = (_contender, { status, body }) => [status, idOf(json(body)) !== undefined, json(body).name];
/** A page that holds every match: their ids, sorted (the contenders order them each their own way). */
const matchesDigest = (_contender, { status, body }) => [
  status,
  docsOf(body)
    .map((doc) => idOf(doc))
    .sort(),
];
/** A patched document: its id, its name and the patched field. */
const patchDigest = (_contender, { status, body }) => {
  const doc = json(body);
  return [status, idOf(doc) !== undefined, doc.name, doc.price];
};

/**
 * `GET /items/<id>` for every contender (the `store` command's server too), walking a fixed
 * sample of ids, one per request, per connection; the limit has the answer of each in its table.
 */
function getById(name, dataset, measures) {
  const ids = sampleIds(DATASETS[dataset]().items);
  const requests = [
    {
      method: 'GET',
      setupRequest: (request, context) => {
        context.i = ((context.i ?? -1) + 1) % ids.length;
        return { ...request, path: `/items/${ids[context.i]}` };
      },
    },
  ];
  return {
    name,
    dataset,
    measures,
    store: { requests },
    ...handWritten({ requests }),
    jsonServer: { requests },
    jsonServerV1: { requests },
    feathers: { requests },
    limit: { requests, paths: ids.map((id) => `/items/${id}`) },
    storeCli: { requests },
    checkPath: `/items/${ids[0]}`,
    digest: getDigest,
  };
}

/** The body every `patch` request sends: one field. */
const PATCH = { price: 1.5 };

/**
 * `PATCH /items/<id>` of `PATCH`, walking the ids of `get-by-id`'s sample of `dataset`, one per
 * request, per connection: the store (both servers) and the peers; the limit has no answer
 * table for a PATCH, and the hand-written routes no PATCH route.
 */
function patchById(name, dataset, measures) {
  const ids = sampleIds(DATASETS[dataset]().items);
  const request = {
    method: 'PATCH',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(PATCH),
  };
  const spec = {
    ...request,
    requests: [
      {
        ...request,
        setupRequest: (each, context) => {
          context.i = ((context.i ?? -1) + 1) % ids.length;
          return { ...each, path: `/items/${ids[context.i]}` };
        },
      },
    ],
  };
  return {
    name,
    dataset,
    measures,
    writes: true,
    store: spec,
    storeCli: spec,
    baseline: null,
    floor: null,
    jsonServer: spec,
    // json-server v1 rewrites its whole file on every write, as its command does.
    jsonServerV1: spec,
    feathers: spec,
    limit: null,
    checkPath: `/items/${ids[0]}`,
    digest: patchDigest,
  };
}

/** A read whose matches fit in one page, in the store's syntax and each peer's. */
function pageOfMatches(name, measures, storeQuery, peers) {
  return {
    name,
    dataset: 'items-10k',
    measures,
    ...storeAndLimit({ path: `/items?${storeQuery}` }),
    baseline: null,
    floor: null,
    jsonServer: { path: `/items?${peers.jsonServer}` },
    jsonServerV1: { path: `/items?${peers.jsonServerV1}` },
    feathers: { path: `/items?${peers.feathers}` },
    digest: matchesDigest,
  };
}

/** How deep the cursor and `$page` cases start in the 100,000 items: 90,000 documents in. */
const DEEP = 90_000;
const PAGE = 20;

/** The `$after` cursor of the page that starts `DEEP` documents into `items-100k` (default `_id` order). */
function deepCursor() {
  const ids = DATASETS['items-100k']()
    .items.map((doc) => doc._id)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return encodeCursor({ _id: 1 }, { _id: ids[DEEP - 1] });
}

const pageLength = (_contender, { status, body }) => [status, json(body).length];

/**
 * A case that compares two requests to the store itself (`store` against `reference`, both on the
 * store's server): its result is the time ratio, checked against `costAtMost`.
 */
function selfCase(name, dataset, measures, path, referencePath, costAtMost, digest = listDigest) {
  return {
    name,
    dataset,
    measures,
    store: { path },
    reference: { path: referencePath },
    baseline: null,
    jsonServer: null,
    costAtMost,
    digest,
  };
}

/** `range-sort` on `collection`: the store's range query, the hand-written route, json-server's. */
function rangeSort(name, dataset, collection, measures) {
  return {
    name,
    dataset,
    measures,
    ...storeAndLimit({ path: `/${collection}?${QUERIES.range}` }),
    ...handWritten({ path: `/${collection}/range-sort` }),
    jsonServer: { path: `/${collection}?${JSON_SERVER_RANGE}` },
    jsonServerV1: { path: `/${collection}?${JSON_SERVER_V1_RANGE}` },
    feathers: { path: `/${collection}?${FEATHERS_RANGE}` },
    digest: listDigest,
  };
}

/**
 * One request (a `path`, or autocannon `requests`) per contender that runs the case; a
 * contender absent or `null` does not. `digest(contender, { status, headers, body })` must agree
 * across contenders.
 */
export function buildCases() {
  return [
    {
      name: 'list-filter',
      dataset: 'items-10k',
      measures: `\`n:gt\` + \`tags:in\` + \`$sort=-n\` + \`$limit=20\` over 10,000 items (a full scan and a sort; ${NO_V1_ARRAY_MATCH})`,
      ...storeAndLimit({ path: `/items?${QUERIES.list}` }),
      ...handWritten({ path: '/items' }),
      jsonServer: { path: `/items?${JSON_SERVER_FILTER}&_sort=n&_order=desc&_limit=20` },
      jsonServerV1: null,
      feathers: { path: `/items?${FEATHERS_FILTER}&$sort[n]=-1&$limit=20` },
      digest: listDigest,
    },
    {
      name: 'list-filter-100k',
      dataset: 'indexed-items-100k',
      measures: `the \`list-filter\` query over 100,000 items whose \`n\` is indexed (\`/${INDEXED}\`; json-server 0.17, which would take seconds per request, and ${NO_V1_ARRAY_MATCH}; Feathers, which sorts every document before filtering, in)`,
      ...storeAndLimit({ path: `/${INDEXED}?${QUERIES.list}` }),
      ...handWritten({ path: `/${INDEXED}` }),
      jsonServerV1: null,
      feathers: { path: `/${INDEXED}?${FEATHERS_FILTER}&$sort[n]=-1&$limit=20` },
      digest: listDigest,
    },
    {
      name: 'count',
      dataset: 'items-10k',
      measures: `the same filter with \`$count=1\` over 10,000 items (Feathers: \`$limit=0\`, its page's \`total\`; ${NO_V1_ARRAY_MATCH})`,
      ...storeAndLimit({ path: `/items?${QUERIES.count}` }),
      ...handWritten({ path: '/items/count' }),
      jsonServer: { path: `/items?${JSON_SERVER_FILTER}&_limit=0` },
      jsonServerV1: null,
      feathers: { path: `/items?${FEATHERS_FILTER}&$limit=0` },
      digest: (contender, { headers, body }) => {
        if (contender === 'jsonServer') return Number(headers['x-total-count']);
        return contender === 'feathers' ? json(body).total : json(body).count;
      },
    },
    rangeSort(
      'range-sort',
      'items-10k',
      'items',
      '`n:gte=501&$sort=-n&$limit=20` over 10,000 items, `n` not indexed (half of them match)',
    ),
    rangeSort(
      'range-sort-indexed',
      'indexed-items-10k',
      INDEXED,
      `the same over the same 10,000 items as \`/${INDEXED}\`, whose \`n\` is indexed`,
    ),
    pageOfMatches(
      'equality',
      `\`n=42&$limit=20\` over 10,000 items, \`n\` not indexed (a full scan; its 7 matches fit the page; ${NO_HAND_WRITTEN})`,
      QUERIES.equality,
      PEER_EQUALITY,
    ),
    pageOfMatches(
      'contains',
      `\`name:contains=999&$limit=20\` over 10,000 items (a case-insensitive substring, a full scan; its 19 matches fit the page; json-server 0.17 \`name_like=999\`, v1 \`name:contains=999\`, Feathers \`name[$regex]=999\`; ${NO_HAND_WRITTEN})`,
      QUERIES.contains,
      PEER_CONTAINS,
    ),
    getById('get-by-id', 'items-1k', '`GET /items/<id>` over 1,000 items, walking 1,000 sampled ids'),
    getById('get-by-id-100k', 'items-100k', 'the same over 100,000 items (an id lookup must not scan)'),
    {
      name: 'populate',
      dataset: 'companies',
      measures:
        '50 companies (of 1,000) with their employees (of 10,000): `$populate=employees&$limit=50` (Feathers, whose memory service has no population, left out)',
      ...storeAndLimit({ path: `/companies?${QUERIES.populate}` }),
      ...handWritten({ path: '/companies' }),
      jsonServer: { path: '/companies?_embed=employees&_sort=id&_order=asc&_limit=50' },
      // Joins every company before paging: on `companyId`, its own foreign key (json-server-v1.mjs).
      jsonServerV1: { path: '/companies?_embed=employees&_sort=id&_page=1&_per_page=50' },
      feathers: null,
      digest: populateDigest,
    },
    {
      name: 'create',
      dataset: 'items-10k',
      measures: '`POST /items` of a small JSON document (a new id, one insert)',
      // Adds thousands of documents: runs after the other cases of its dataset (see run.mjs).
      writes: true,
      ...storeAndLimit(post('/items')),
      ...handWritten(post('/items')),
      jsonServer: post('/items'),
      // json-server v1 rewrites its whole file on every write, as its command does.
      jsonServerV1: post('/items'),
      feathers: post('/items'),
      digest: createDigest,
    },
    patchById(
      'patch',
      'items-10k',
      `\`PATCH /items/<id>\` of one field (\`{"price":1.5}\`) over 10,000 items, walking 1,000 sampled ids (${NO_HAND_WRITTEN}; the limit, which has no PATCH answers, too)`,
    ),
    {
      name: 'create-subscribed',
      dataset: 'items-10k',
      measures:
        '`create` with 1,000 idle event streams open on `items`, each `?room=room-<i>`, every created item in one of these rooms in turn (each write is sent to one stream; the streams opened once the store served these writes, and read every 250 ms as remote readers would, without the kernel waking them) / the same `create` on a second store with none',
      writes: true,
      subscribers: SUBSCRIBERS,
      store: postToRooms('/items'),
      reference: postToRooms('/items'),
      baseline: null,
      jsonServer: null,
      // Issue 27: requests/s with the streams at least 0.8x of requests/s without.
      throughputAtLeast: 0.8,
      digest: createDigest,
    },
    selfCase(
      'total',
      'items-10k',
      '`$total=1` on a react-admin style page (`$sort=-n&$limit=20`, `X-Total-Count` and `Link`) / the same page without it',
      '/items?$sort=-n&$limit=20&$total=1',
      '/items?$sort=-n&$limit=20',
      1.3,
    ),
    selfCase(
      'total-filter',
      'items-10k',
      '`$total=1` on the `list-filter` page / the same page without it (no target: the embedded engine scans the filter again to count it)',
      `/items?${QUERIES.list}&$total=1`,
      `/items?${QUERIES.list}`,
      Number.POSITIVE_INFINITY,
    ),
    selfCase(
      'cursor-deep',
      'items-100k',
      `an \`$after\` page ${DEEP.toLocaleString('en-US')} documents into 100,000 items / the first page ($limit=${PAGE})`,
      `/items?$limit=${PAGE}&$after=${deepCursor()}`,
      `/items?$limit=${PAGE}`,
      1.5,
      pageLength,
    ),
    selfCase(
      'page-deep',
      'items-100k',
      `the same depth by \`$page=${DEEP / PAGE}\` / the first page (for comparison; no target)`,
      `/items?$limit=${PAGE}&$page=${DEEP / PAGE}`,
      `/items?$limit=${PAGE}`,
      Number.POSITIVE_INFINITY,
      pageLength,
    ),
  ];
}
