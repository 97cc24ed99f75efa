/**
 * The snapshot's body of version 2 (documents as JSON where JSON carries them exactly, as BSON
 * otherwise) gives back exactly the documents a version-1 snapshot gives back, types included;
 * a version-1 snapshot still opens; a damaged version-2 snapshot is refused like a damaged
 * version-1 one.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Document } from '@store/common';
import { createEmbeddedDb, EmbeddedDataError } from '@store/embedded';
import {
  Binary,
  BSON,
  BSONRegExp,
  BSONSymbol,
  Code,
  Decimal128,
  Double,
  EJSON,
  Int32,
  Long,
  MaxKey,
  MinKey,
  ObjectId,
  Timestamp,
} from 'bson';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { IndexDefinition } from '../src/collection';
import { openDataDirectory, SNAPSHOT, writeSnapshot } from '../src/durable/data-directory';
import { exactInJson } from '../src/durable/json-exact';
import { decodeRecords, encodeRecord, frameRecord } from '../src/durable/records';
import { jsonScalars, ownObject } from './support/value-arbitraries';

const quiet = () => undefined;
/** The package's directory: a child process there imports `@store/embedded` as built. */
const PACKAGE_DIR = join(dirname(fileURLToPath(import.meta.url)), '..');
const freshDir = () => mkdtempSync(join(tmpdir(), 'store-snapshot-'));

type State = Array<[name: string, image: { docs: Document[]; indexes: IndexDefinition[] }]>;

/** Writes `state` as a snapshot of version 1, as the writer of version 1 did. */
function writeVersion1Snapshot(dir: string, generation: number, state: State): void {
  const records = [encodeRecord([{ format: 'store-embedded', version: 1, generation }])];
  let batch: Document[] = [];
  let documents = 0;
  for (const [name, { docs, indexes }] of state) {
    for (const index of indexes) batch.push({ c: name, index });
    for (const doc of docs) {
      batch.push({ c: name, put: doc });
      documents += 1;
      if (batch.length >= 1_000) {
        records.push(encodeRecord(batch));
        batch = [];
      }
    }
  }
  if (batch.length > 0) records.push(encodeRecord(batch));
  records.push(encodeRecord([{ end: true, documents }]));
  writeFileSync(join(dir, SNAPSHOT), Buffer.concat(records));
}

/** Each collection's documents, in their stored order, as opening `dir` reads them. */
async function readBack(dir: string): Promise<Map<string, Document[]>> {
  const opened = openDataDirectory(dir, quiet);
  try {
    return new Map([...opened.collections].map(([name, image]) => [name, [...image.docs.values()]]));
  } finally {
    await opened.journal.close();
    opened.unlock();
  }
}

/** What a BSON round trip (a snapshot of version 1) makes of `doc`. */
const viaBson = (doc: Document): Document =>
  BSON.deserialize(BSON.serialize(doc, { ignoreUndefined: false }));

/**
 * Where `actual` differs from `expected` (undefined if nowhere): each object of the same
 * prototype with the same own keys in the same order, each primitive the same by `Object.is`
 * (-0 and NaN included), each Date at the same time, each regular expression the same.
 */
function difference(actual: unknown, expected: unknown, path = '$'): string | undefined {
  if (typeof expected !== 'object' || expected === null || typeof actual !== 'object' || actual === null) {
    return Object.is(actual, expected) ? undefined : path;
  }
  if (Object.getPrototypeOf(actual) !== Object.getPrototypeOf(expected)) return `${path} (prototype)`;
  if (expected instanceof Date && !Object.is((actual as Date).getTime(), expected.getTime())) return path;
  if (expected instanceof RegExp && String(actual) !== String(expected)) return path;
  const keys = Reflect.ownKeys(expected);
  if (Reflect.ownKeys(actual).join('\u0000') !== keys.join('\u0000')) return `${path} (keys)`;
  for (const key of keys) {
    const inner = difference(
      (actual as Record<PropertyKey, unknown>)[key],
      (expected as Record<PropertyKey, unknown>)[key],
      `${path}.${String(key)}`,
    );
    if (inner) return inner;
  }
  return undefined;
}

/** Asserts `actual` is `expected` exactly: the same values of the same types, -0 and key order included. */
function expectSameDocuments(actual: Document[], expected: Document[]): void {
  expect(actual).toHaveLength(expected.length);
  for (const [i, doc] of expected.entries())
    expect(difference(actual[i], doc), `document ${i}`).toBeUndefined();
  const bytes = (docs: Document[]) => docs.map((doc) => Buffer.from(BSON.serialize(doc)).toString('hex'));
  expect(bytes(actual)).toEqual(bytes(expected));
}

/** Strings a tag scheme could mistake for a tag, and strings JSON or BSON treat apart. */
const TRICKY_STRINGS = [
  '{"$oid":"0123456789abcdef01234567"}',
  '$date',
  '$oid',
  '{"$numberLong":"5"}',
  '-0',
  'NaN',
  '',
  '\u0000',
  '\ud800',
  'a\udc00b',
  '\ud83d\ude00',
  '"\\',
  '\u2028',
];

/** Keys JSON, BSON or JavaScript treat apart. */
const TRICKY_KEYS = [
  '$oid',
  '$date',
  '$ref',
  '$id',
  '__proto__',
  'a.b',
  '0',
  '1',
  'toJSON',
  'constructor',
  '\ud800',
];

/** Values JSON has (most of which it carries exactly). */
const jsonLeaf = fc.oneof(
  ...jsonScalars,
  fc.constantFrom(...TRICKY_STRINGS),
  fc.constantFrom(-0, 0, 2 ** 31, -(2 ** 31) - 1, 2 ** 53 + 2, Number.MAX_VALUE, Number.MIN_VALUE),
);

/** Every kind of value the engine stores, and then some. */
const leaf = fc.oneof(
  jsonLeaf,
  fc.constant(undefined),
  fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }),
  fc.uint8Array({ minLength: 12, maxLength: 12 }).map((bytes) => new ObjectId(Buffer.from(bytes))),
  fc.date(),
  fc.integer().map((n) => Decimal128.fromString(`${n}.${Math.abs(n % 1000)}E-3`)),
  fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }).map((n) => Long.fromBigInt(n)),
  fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }).map((n) => new Int32(n)),
  fc.double().map((n) => new Double(n)),
  fc
    .tuple(fc.uint8Array({ maxLength: 8 }), fc.constantFrom(0, 5, 0x80))
    .map(([bytes, subtype]) => new Binary(Buffer.from(bytes), subtype)),
  fc.constantFrom(/ab+c/i, /x/gm, /^\d+$/, new BSONRegExp('a+', 'i')),
  fc.nat().map((t) => new Timestamp({ t, i: 1 })),
  fc.constantFrom(new MinKey(), new MaxKey(), new Code('x = 1'), new BSONSymbol('s')),
  fc.constant({ $ref: 'other', $id: 1 }),
);

const key = fc.oneof(
  fc.string({ maxLength: 4 }).filter((text) => !text.includes('\u0000')),
  fc.constantFrom(...TRICKY_KEYS),
);

/** Values of any kind, or (`jsonValue`) of kinds JSON has, nested in objects and arrays. */
const { value, jsonValue } = fc.letrec<{ value: unknown; jsonValue: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.array(tie('value'), { maxLength: 3 }),
    fc.array(fc.tuple(key, tie('value')), { maxLength: 3 }).map(ownObject),
  ),
  jsonValue: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    jsonLeaf,
    fc.array(tie('jsonValue'), { maxLength: 3 }),
    fc.array(fc.tuple(key, tie('jsonValue')), { maxLength: 3 }).map(ownObject),
  ),
}));

/**
 * A document as the engine may hold one: `fields` after `_id`, but not both `$ref` and `$id`
 * (BSON reads such a document back as a DBRef, without its `_id`: the engine never holds one).
 */
function storable(_id: unknown, fields: Array<[string, unknown]>): Document {
  const kept = fields.filter(([name]) => name !== '_id');
  const dbRef = kept.some(([name]) => name === '$ref');
  return ownObject([['_id', _id], ...kept.filter(([name]) => !dbRef || name !== '$id')]);
}

/** Documents: some of one shape (they go as columns), some of any; `_id`s unique. */
const documents = fc
  .array(
    fc.oneof(
      fc.tuple(value, value, value).map(([a, b, c]) => ({ a, b, c })),
      fc.tuple(jsonValue, jsonValue, jsonValue).map(([a, b, c]) => ({ a, b, c })),
      fc.tuple(jsonValue, jsonValue).map(([name, n]) => ({ name, n })),
      fc.array(fc.tuple(key, value), { maxLength: 4 }).map(ownObject),
      fc.array(fc.tuple(key, jsonValue), { maxLength: 4 }).map(ownObject),
    ),
    { maxLength: 40 },
  )
  .map((docs) =>
    docs.map((doc, i) => {
      const _id = i % 5 === 0 ? new ObjectId(i.toString(16).padStart(24, '0')) : `doc-${i}`;
      return storable(_id, Object.entries(doc));
    }),
  );

/** Enough documents of one shape that the reader compiles the shape's maker; keys of any kind. */
const shaped = fc.uniqueArray(key, { maxLength: 5 }).chain((keys) => {
  const fields = fc.array(fc.oneof({ weight: 9, arbitrary: jsonValue }, { weight: 1, arbitrary: value }), {
    minLength: keys.length,
    maxLength: keys.length,
  });
  return fc.array(fields, { minLength: 32, maxLength: 48 }).map((rows) =>
    rows.map((row, i) =>
      storable(
        `s${i}`,
        keys.map((name, k) => [name, row[k]] as [string, unknown]),
      ),
    ),
  );
});

describe('the snapshot body of version 2', () => {
  it('reads back every BSON type, nested in objects and arrays, exactly as a version-1 snapshot does', async () => {
    /** How many generated documents went as JSON, and how many as BSON: both ways are tested. */
    const went = { json: 0, bson: 0 };
    await fc.assert(
      fc.asyncProperty(documents, documents, shaped, async (items, others, alike) => {
        for (const doc of [...items, ...others, ...alike]) went[exactInJson(doc) ? 'json' : 'bson'] += 1;
        const state: State = [
          ['items', { docs: items, indexes: [] }],
          ['others', { docs: others, indexes: [] }],
          ['alike', { docs: alike, indexes: [] }],
        ];
        const version2 = freshDir();
        await writeSnapshot(version2, 1, state);
        const version1 = freshDir();
        writeVersion1Snapshot(version1, 1, state);
        const [read2, read1] = [await readBack(version2), await readBack(version1)];
        for (const [name, { docs }] of state) {
          const expected = docs.map(viaBson);
          expectSameDocuments(read1.get(name) ?? [], expected);
          expectSameDocuments(read2.get(name) ?? [], expected);
        }
      }),
      { numRuns: 100 },
    );
    expect(went.json).toBeGreaterThan(1_000);
    expect(went.bson).toBeGreaterThan(1_000);
  });

  it('keeps a string that looks like a tag a string, and an object of $-keys an object', async () => {
    const dir = freshDir();
    const docs = [
      { _id: 'a', s: '{"$oid":"0123456789abcdef01234567"}', d: '$date', n: { x: '{"$numberDecimal":"1"}' } },
      { _id: 'b', s: '$oid', d: ['{"$date":0}'], n: { x: 'plain' } },
      { _id: 'c', o: { $oid: '0123456789abcdef01234567' }, t: { $date: 0 } },
    ];
    await writeSnapshot(dir, 1, [['tags', { docs, indexes: [] }]]);
    expectSameDocuments((await readBack(dir)).get('tags') ?? [], docs.map(viaBson));
    expect((await readBack(dir)).get('tags')?.[0]?.s).toBe('{"$oid":"0123456789abcdef01234567"}');
  });

  it('goes as JSON only for values JSON gives back as BSON does', () => {
    const asJson = [
      'text',
      '\ud83d\ude00',
      1,
      0,
      1.5,
      -(2 ** 40),
      true,
      null,
      [1, 'a', { b: [null] }],
      { a: { b: 'c' } },
      Object.create(null),
    ];
    const notAsJson = [
      '\ud800',
      -0,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      undefined,
      1n,
      new ObjectId(),
      new Date(0),
      Decimal128.fromString('1.5'),
      Long.fromNumber(1),
      new Int32(1),
      new Double(1),
      new Binary(Buffer.from([1])),
      /a/,
      new BSONRegExp('a'),
      [1, undefined],
      // biome-ignore lint/suspicious/noSparseArray: a hole is what is tested
      [1, , 2],
      { $ref: 'c', $id: 1 },
      { a: { '\ud800': 1 } },
      { toJSON: 'x' },
      new Map(),
    ];
    expect(asJson.filter((each) => !exactInJson(each))).toEqual([]);
    expect(notAsJson.filter((each) => exactInJson(each))).toEqual([]);
  });

  it('keeps the stored order of documents of several shapes, as JSON and as BSON', async () => {
    const dir = freshDir();
    const docs = Array.from({ length: 2_500 }, (_, i) => {
      if (i % 7 === 0) return { _id: i, at: new Date(i) };
      if (i % 5 === 0) return { _id: i, tags: ['x', i] };
      if (i % 11 === 0)
        return ownObject([
          ['_id', i],
          ['__proto__', { i }],
        ]);
      return { _id: i, name: `n${i}`, price: i / 4 };
    });
    await writeSnapshot(dir, 1, [['mixed', { docs, indexes: [] }]]);
    const read = (await readBack(dir)).get('mixed') ?? [];
    expectSameDocuments(read, docs.map(viaBson));
    expect(Object.getPrototypeOf(read[11])).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(read[11], '__proto__')?.value).toEqual({ i: 11 });
  });

  it('makes documents of one shape whatever their keys, as a string of code or key by key', async () => {
    const keys = [
      "'); throw new Error('x'); ('",
      '"; }; throw 1; //',
      '\u2028',
      'a"b',
      '\\',
      '}',
      'c0',
      '10',
      '2',
      'constructor',
    ];
    const row = (i: number) =>
      storable(
        `k${i}`,
        keys.map((name, k) => [name, k % 2 ? i : `v${i}`]),
      );
    for (const count of [40, 3]) {
      const dir = freshDir();
      const docs = Array.from({ length: count }, (_, i) => row(i));
      await writeSnapshot(dir, 1, [['keys', { docs, indexes: [] }]]);
      expectSameDocuments((await readBack(dir)).get('keys') ?? [], docs.map(viaBson));
    }
  });

  it('reads the same documents in a process that compiles no code from strings', async () => {
    const dir = freshDir();
    const docs = Array.from({ length: 100 }, (_, i) => ({
      _id: `d${i}`,
      name: `n${i}`,
      tags: ['a', i],
      price: i / 4,
    }));
    await writeSnapshot(dir, 1, [['items', { docs, indexes: [] }]]);
    const script =
      "import { createEmbeddedDb } from '@store/embedded'; import { EJSON } from 'bson';" +
      `const db = createEmbeddedDb({ dir: ${JSON.stringify(dir)}, warn: () => undefined });` +
      "process.stdout.write(EJSON.stringify(await db.collection('items').find({}).toArray(), { relaxed: false }));" +
      'await db.close();';
    const flags = ['--disallow-code-generation-from-strings', '--input-type=module', '-e', script];
    const read = execFileSync(process.execPath, flags, { cwd: PACKAGE_DIR, encoding: 'utf8' });
    expect(read).toBe(EJSON.stringify(docs.map(viaBson), { relaxed: false }));
  });

  it('is still BSON documents back to back in each record (a backup reads it whole)', async () => {
    const dir = freshDir();
    await writeSnapshot(dir, 3, [
      [
        'items',
        {
          docs: [
            { _id: 1, a: 'x' },
            { _id: 2, at: new Date(0) },
          ],
          indexes: [],
        },
      ],
    ]);
    const { records, damage } = decodeRecords(readFileSync(join(dir, SNAPSHOT)));
    expect(damage).toBeUndefined();
    expect(records[0]?.[0]).toEqual({ format: 'store-embedded', version: 2, generation: 3 });
    expect(records[1]?.[0]).toEqual({ c: 'items', docs: 2, bson: 1 });
  });
});

describe('opening snapshots of either version', () => {
  it('opens a version-1 snapshot, indexes included, and writes version 2 on close', async () => {
    const dir = freshDir();
    const posts = Array.from({ length: 1_500 }, (_, i) => ({
      _id: i % 2 ? new ObjectId(i.toString(16).padStart(24, '0')) : `p${i}`,
      n: i,
      at: new Date(i * 1000),
    }));
    const byN: IndexDefinition = { name: 'n_1', spec: { n: 1 }, options: { unique: true } };
    writeVersion1Snapshot(dir, 1, [
      ['posts', { docs: posts, indexes: [byN] }],
      ['empty', { docs: [], indexes: [{ name: 'x_1', spec: { x: 1 }, options: {} }] }],
    ]);
    const db = createEmbeddedDb({ dir, warn: quiet });
    expectSameDocuments(await db.collection('posts').find({}).toArray(), posts.map(viaBson));
    expect((await db.collection('posts').listIndexes().toArray()).map((index) => index.name)).toEqual([
      '_id_',
      'n_1',
    ]);
    await expect(db.collection('posts').insertOne({ _id: 'other', n: 3 })).rejects.toThrow(/duplicate key/);
    expect((await db.collection('empty').listIndexes().toArray()).map((index) => index.name)).toContain(
      'x_1',
    );
    // Enough written that closing compacts the journal into a new snapshot.
    const more = Array.from({ length: 1_000 }, (_, i) => ({
      _id: `more-${i}`,
      n: -1 - i,
      text: 'x'.repeat(80),
    }));
    await db.collection('posts').insertMany(more);
    await db.close();

    expect(decodeRecords(readFileSync(join(dir, SNAPSHOT))).records[0]?.[0]?.version).toBe(2);
    const again = createEmbeddedDb({ dir, warn: quiet });
    expectSameDocuments(await again.collection('posts').find({}).toArray(), [...posts, ...more].map(viaBson));
    expect(await again.collection('posts').findOne({ n: 7 })).toStrictEqual(viaBson(posts[7] as Document));
    await expect(again.collection('posts').insertOne({ _id: 'other', n: 3 })).rejects.toThrow(
      /duplicate key/,
    );
    expect((await again.collection('empty').listIndexes().toArray()).map((index) => index.name)).toContain(
      'x_1',
    );
    await again.close();
  });

  it.each([
    ['a flipped byte in the JSON text', (bytes: Buffer) => bytes.indexOf('"docs"') + 2],
    ['a flipped byte in a BSON document of a batch', (bytes: Buffer) => bytes.lastIndexOf('at') + 4],
  ])('refuses a version-2 snapshot with %s, naming it', async (_, where) => {
    const dir = freshDir();
    const docs = Array.from({ length: 10 }, (_, i) => ({ _id: i, at: new Date(i), name: `n${i}` }));
    await writeSnapshot(dir, 1, [['items', { docs, indexes: [] }]]);
    const path = join(dir, SNAPSHOT);
    const bytes = readFileSync(path);
    const at = where(bytes);
    bytes.writeUInt8(bytes.readUInt8(at) ^ 0xff, at);
    writeFileSync(path, bytes);
    expect(() => createEmbeddedDb({ dir, warn: quiet })).toThrow(EmbeddedDataError);
    expect(() => createEmbeddedDb({ dir, warn: quiet })).toThrow(
      /snapshot\.bson is damaged \(a record whose checksum/,
    );
  });

  it.each([
    [
      'columns whose key would set a prototype',
      (text: string) => text.replace('"keys":["_id","name"]', '"keys":["_id","__proto__"]'),
    ],
    [
      'entries standing for more documents than it holds',
      (text: string) => text.replace('"docs":[0,', '"docs":[0,0,'),
    ],
    ['a column shorter than its shape', (text: string) => text.replace('"n0",', '')],
  ])('refuses a version-2 snapshot with %s, even under a matching checksum', async (_, forge) => {
    const dir = freshDir();
    const docs = Array.from({ length: 40 }, (_, i) => ({ _id: i, name: `n${i}` }));
    await writeSnapshot(dir, 1, [['items', { docs, indexes: [] }]]);
    const path = join(dir, SNAPSHOT);
    const [header, batch, end] = decodeRecords(readFileSync(path)).records;
    const text = forge(batch?.[1]?.json as string);
    expect(text).not.toBe(batch?.[1]?.json);
    const forged = frameRecord(
      Buffer.concat([BSON.serialize(batch?.[0] as Document), BSON.serialize({ json: text })]),
    );
    writeFileSync(
      path,
      Buffer.concat([encodeRecord(header as Document[]), forged, encodeRecord(end as Document[])]),
    );
    expect(() => createEmbeddedDb({ dir, warn: quiet })).toThrow(
      /snapshot\.bson is damaged \(a record that is neither BSON nor a batch/,
    );
  });

  it('refuses a version-2 snapshot cut short', async () => {
    const dir = freshDir();
    const docs = Array.from({ length: 3_000 }, (_, i) => ({ _id: i, name: `n${i}` }));
    await writeSnapshot(dir, 1, [['items', { docs, indexes: [] }]]);
    const path = join(dir, SNAPSHOT);
    const bytes = readFileSync(path);
    for (const keep of [bytes.length - 1, Math.floor(bytes.length / 2)]) {
      writeFileSync(path, bytes.subarray(0, keep));
      expect(() => createEmbeddedDb({ dir, warn: quiet })).toThrow(
        /snapshot\.bson is damaged \(a record cut short/,
      );
    }
  });
});
