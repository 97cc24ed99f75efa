/**
 * Documents of one shape (the same keys in the same order) as columns: `{ n, keys, cols }`, the
 * k-th column holding the value of the k-th key of each document. As JSON, a column of values
 * parses much faster than as many objects, each repeating its keys.
 */
import { type Document, literalKey, MAX_LITERAL_KEYS, ShapeLiterals } from '@store/common';

/** `n` documents of one shape: `cols[k][i]` is the value of `keys[k]` in the i-th. */
export interface Columns {
  n: number;
  keys: string[];
  cols: unknown[][];
}

/** Groups documents by shape into columns, in order; a document's place is told by `add`. */
export class ColumnsWriter {
  readonly shapes: Columns[] = [];
  /** Each shape's number, by its keys joined by NULs. */
  readonly #numbers = new Map<string, number>();

  /**
   * Adds `doc` (whose keys are `keys`: `literalKey`s, at most MAX_LITERAL_KEYS) to the columns of
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
    keys.length <= MAX_LITERAL_KEYS &&
    keys.every((key) => typeof key === 'string' && literalKey(key)) &&
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

/**
 * The body of a `RowsMaker` for `keys`: one object literal of the shape, the fastest way V8
 * makes such objects (as fast as `JSON.parse`, with no key to read).
 */
function makerSource(keys: readonly string[]): string {
  const names = keys.map((_, k) => `c${k}`);
  const fields = keys.map((key, k) => `${JSON.stringify(key)}: c${k}[i]`);
  return (
    `const [${names.join(', ')}] = cols; const rows = new Array(n); ` +
    `for (let i = 0; i < n; i++) rows[i] = { ${fields.join(', ')} }; return rows;`
  );
}

/**
 * Makes the documents of columns, for one read: a shape met often enough has its maker
 * compiled once (see `makerSource`), any other goes key by key. Both make the same documents.
 */
export class RowMakers {
  readonly #makers = new ShapeLiterals<RowsMaker>(['cols', 'n'], makerSource);

  /** The documents of `columns`, in order. */
  rowsOf(columns: Columns): Document[] {
    const maker = columns.n >= COMPILE_FROM_ROWS ? this.#makers.of(columns.keys) : undefined;
    return maker ? maker(columns.cols, columns.n) : rowsKeyByKey(columns);
  }
}
