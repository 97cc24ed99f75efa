/**
 * Documents of one shape (the same keys in the same order) as columns: `{ n, keys, cols }`, the
 * k-th column holding the value of the k-th key of each document. As JSON, a column of values
 * parses much faster than as many objects, each repeating its keys.
 */
import type { Document } from '@store/common';

/** `n` documents of one shape: `cols[k][i]` is the value of `keys[k]` in the i-th. */
export interface Columns {
  n: number;
  keys: string[];
  cols: unknown[][];
}

/**
 * Keys a document of columns may have: not `__proto__` (an object literal or a store would set
 * the prototype), nor a NUL (a shape is named by its keys joined by NULs).
 */
export const columnKey = (key: string): boolean => key !== '__proto__' && !key.includes('\u0000');

/** Keys a document may have to go as columns (more are rare: it goes as an object). */
export const MAX_COLUMN_KEYS = 256;

/** Groups documents by shape into columns, in order; a document's place is told by `add`. */
export class ColumnsWriter {
  readonly shapes: Columns[] = [];
  /** Each shape's number, by its keys joined by NULs. */
  readonly #numbers = new Map<string, number>();

  /**
   * Adds `doc` (whose keys are `keys`: `columnKey`s, at most MAX_COLUMN_KEYS) to the columns of
   * its shape, and answers that shape's number.
   */
  add(doc: Document, keys: string[]): number {
    const shape = keys.join('\u0000');
    let number = this.#numbers.get(shape);
    if (number === undefined) {
      number = this.shapes.push({ n: 0, keys, cols: keys.map(() => []) }) - 1;
      this.#numbers.set(shape, number);
    }
    const columns = this.shapes[number] as Columns;
    for (let k = 0; k < keys.length; k++) (columns.cols[k] as unknown[]).push(doc[keys[k] as string]);
    columns.n += 1;
    return number;
  }
}

/** Whether `value`, read from disk, is columns (see {@link Columns}). */
export function isColumns(value: unknown): value is Columns {
  if (typeof value !== 'object' || value === null) return false;
  const { n, keys, cols } = value as Partial<Columns>;
  return (
    Number.isInteger(n) &&
    (n as number) >= 0 &&
    Array.isArray(keys) &&
    keys.length <= MAX_COLUMN_KEYS &&
    keys.every((key) => typeof key === 'string' && columnKey(key)) &&
    new Set(keys).size === keys.length &&
    Array.isArray(cols) &&
    cols.length === keys.length &&
    cols.every((col) => Array.isArray(col) && col.length === n)
  );
}

/** The documents of `columns`, in order, one key at a time. */
function rowsKeyByKey({ n, keys, cols }: Columns): Document[] {
  const rows: Document[] = new Array(n);
  const width = keys.length;
  for (let i = 0; i < n; i++) {
    const row: Document = {};
    for (let k = 0; k < width; k++) row[keys[k] as string] = (cols[k] as unknown[])[i];
    rows[i] = row;
  }
  return rows;
}

/** Makes the documents of `cols` (one column per key of the shape), `n` of them. */
type RowsMaker = (cols: unknown[][], n: number) => Document[];

/** Documents of one shape in one batch from which its maker is compiled: fewer go key by key. */
const COMPILE_FROM_ROWS = 32;
/** Shapes compiled at most by one `RowMakers`: documents of more shapes go key by key. */
const MAX_COMPILED = 64;

/**
 * The source of a `RowsMaker` for `keys`: one object literal of the shape, the fastest way
 * V8 makes such objects (as fast as `JSON.parse`, with no key to read). Each key is written
 * as a JSON string, which is a JavaScript string literal, so no key can be more than a name;
 * `__proto__` never comes here (see `columnKey`).
 */
function makerSource(keys: readonly string[]): string {
  const names = keys.map((_, k) => `c${k}`);
  const fields = keys.map((key, k) => `${JSON.stringify(key)}: c${k}[i]`);
  return (
    `'use strict'; const [${names.join(', ')}] = cols; const rows = new Array(n); ` +
    `for (let i = 0; i < n; i++) rows[i] = { ${fields.join(', ')} }; return rows;`
  );
}

/** Whether this process compiles code from strings (not under `--disallow-code-generation-from-strings`). */
let compiling = true;

/**
 * Makes the documents of columns, for one read: a shape met often enough has its maker
 * compiled once (see `makerSource`), any other goes key by key. Both make the same documents.
 */
export class RowMakers {
  readonly #compiled = new Map<string, RowsMaker>();

  /** The documents of `columns`, in order. */
  rowsOf(columns: Columns): Document[] {
    const maker = columns.n >= COMPILE_FROM_ROWS ? this.#makerOf(columns.keys) : undefined;
    return maker ? maker(columns.cols, columns.n) : rowsKeyByKey(columns);
  }

  #makerOf(keys: readonly string[]): RowsMaker | undefined {
    const shape = keys.join('\u0000');
    let maker = this.#compiled.get(shape);
    if (maker || !compiling || this.#compiled.size >= MAX_COMPILED) return maker;
    try {
      maker = new Function('cols', 'n', makerSource(keys)) as RowsMaker;
    } catch {
      compiling = false; // code generation is disallowed: key by key from now on
      return undefined;
    }
    this.#compiled.set(shape, maker);
    return maker;
  }
}
