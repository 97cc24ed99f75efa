// Deterministic data sets for the benchmark: every contender loads the same documents, made by
// a seeded PRNG (mulberry32), so a run can be repeated exactly.

/** A seeded PRNG giving floats in [0, 1). */
export function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Tag words: none is a substring of another, so json-server's `tags_like=red|blue` is exact. */
const TAGS = ['red', 'blue', 'green', 'amber', 'violet', 'black', 'white', 'grey'];
const CITIES = ['Lyon', 'Oslo', 'Kyoto', 'Lima', 'Perth', 'Quito', 'Riga', 'Accra'];

const int = (rand, n) => Math.floor(rand() * n);

/** A 24-hex-digit id, like the ones the store stores for a POST without `_id`. */
export function hexId(rand) {
  let id = '';
  for (let i = 0; i < 3; i++) id += int(rand, 0x100000000).toString(16).padStart(8, '0');
  return id;
}

function item(rand, i) {
  const tags = new Set();
  const howMany = 1 + int(rand, 3);
  while (tags.size < howMany) tags.add(TAGS[int(rand, TAGS.length)]);
  return {
    _id: hexId(rand),
    name: `item-${i}`,
    n: int(rand, 1000),
    tags: [...tags],
    price: Math.round(rand() * 100_000) / 100,
    active: rand() < 0.5,
  };
}

/** `count` items `{ _id, name, n (0..999), tags (1-3 of TAGS), price, active }`. */
export function items(count, seed = 1) {
  const rand = mulberry32(seed);
  return Array.from({ length: count }, (_, i) => item(rand, i));
}

/** 1,000 companies and 10,000 employees, each employee with a `company_id`. */
function companies(seed = 2) {
  const rand = mulberry32(seed);
  const companyList = Array.from({ length: 1000 }, (_, i) => ({
    _id: hexId(rand),
    name: `company-${i}`,
    city: CITIES[int(rand, CITIES.length)],
  }));
  const employees = Array.from({ length: 10_000 }, (_, i) => ({
    _id: hexId(rand),
    name: `employee-${i}`,
    company_id: companyList[int(rand, companyList.length)]._id,
    salary: 30_000 + int(rand, 90_000),
  }));
  return { companies: companyList, employees };
}

/** The collection (and resource) whose `n` field is indexed. */
export const INDEXED = 'indexed-items';

/** The data sets, by name: each maps collection names to documents. */
export const DATASETS = {
  'items-1k': () => ({ items: items(1_000) }),
  'items-10k': () => ({ items: items(10_000) }),
  'items-100k': () => ({ items: items(100_000) }),
  // The same documents as items-10k / items-100k under `indexed-items`, the resource whose `n` is
  // indexed (a data set of its own, so the other cases' processes do not hold a second copy).
  'indexed-items-10k': () => ({ [INDEXED]: items(10_000) }),
  'indexed-items-100k': () => ({ [INDEXED]: items(100_000) }),
  companies: () => companies(),
};

/** The same data for json-server, whose id field is `id` (and whose `_embed` joins on it). */
export function forJsonServer(collections) {
  return Object.fromEntries(
    Object.entries(collections).map(([name, docs]) => [
      name,
      docs.map(({ _id, ...rest }) => ({ id: _id, ...rest })),
    ]),
  );
}

/** Ids to ask for in `get-by-id`: a fixed, spread-out sample of the collection's ids. */
export function sampleIds(docs, count = 1000) {
  const rand = mulberry32(7);
  return Array.from({ length: Math.min(count, docs.length) }, () => docs[int(rand, docs.length)]._id);
}
