/**
 * Files of whole collections: an object whose array members are collections of documents, as
 * `store export` writes it (Extended JSON, so ObjectIds and dates come back as they were) and
 * as json-server's `db.json` is (documents with `id`: it becomes `_id`).
 */
import { isAscii } from 'node:buffer';
import { readFileSync } from 'node:fs';
import type { Document } from '@store/common';
import { isValidResourceName } from '@store/query';
import { EJSON } from 'bson';
import { CliError } from './cli-error';
import { parseExtendedJson } from './extended-json';
import { StoreIds } from './store-id';

/** The collections of a file, and the top-level members that are not collections. */
export interface DataFile {
  collections: Map<string, Document[]>;
  /** Members that are not arrays (json-server's `profile` object), left out. */
  skipped: string[];
}

function isDocument(value: unknown): value is Document {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The text of a file: an ASCII one (most JSON files) copied as Latin-1, which for ASCII is the
 * same text, with no UTF-8 decoding (100 MB: about 0.1 s sooner); any other decoded as UTF-8.
 */
function textOf(bytes: Buffer): string {
  return bytes.toString(isAscii(bytes) ? 'latin1' : 'utf8');
}

/** The file at `path`, parsed; its text is dropped on return (a large file is not held twice). */
function parseFile(path: string): unknown {
  let text: string;
  try {
    text = textOf(readFileSync(path));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new CliError(
      `cannot read ${path}: ${code === 'ENOENT' ? 'no such file' : (error as Error).message}`,
    );
  }
  try {
    return parseExtendedJson(text);
  } catch (error) {
    throw new CliError(`${path} is not valid JSON: ${(error as Error).message}`);
  }
}

/** Reads and checks `path`; every problem names the file and where in it. */
export function readDataFile(path: string): DataFile {
  const parsed = parseFile(path);
  if (!isDocument(parsed)) {
    throw new CliError(`${path} must hold an object of collections, such as { "posts": [ ... ] }`);
  }
  const collections = new Map<string, Document[]>();
  const skipped: string[] = [];
  const storeIds = new StoreIds();
  for (const [name, value] of Object.entries(parsed)) {
    if (!Array.isArray(value)) {
      skipped.push(name);
      continue;
    }
    if (!isValidResourceName(name)) throw new CliError(`${path}: "${name}" is not a valid collection name`);
    // In place: each document read gives way to its renamed copy (json-server's `id` becomes
    // `_id`, first), so the two are not both kept.
    for (const [i, doc] of value.entries()) {
      if (!isDocument(doc)) throw new CliError(`${path}: ${name}[${i}] is not an object`);
      value[i] = storeIds.of(doc);
    }
    collections.set(name, value);
  }
  return { collections, skipped };
}

/** The collections as `store export` writes them: Extended JSON (relaxed), two-space indented. */
export function formatDataFile(collections: ReadonlyMap<string, Document[]>): string {
  return `${EJSON.stringify(Object.fromEntries(collections), undefined, 2, { relaxed: true })}\n`;
}
