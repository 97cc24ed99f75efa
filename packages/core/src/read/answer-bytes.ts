/**
 * The bytes budget of a read's answer (`budgets.answerBytes`): the answer is serialized in
 * pieces (the page's documents, their fields, the related documents they carry), counting as it
 * goes, and refused as soon as it is past the budget: an answer many times larger is never built
 * whole, and never sent in part.
 */
import { isPlainObject } from '@store/common';
import type { Serialize } from '../http/respond';
import type { RequestContext } from '../model/context';
import { storeError } from '../model/error-codes';

/**
 * Levels of arrays and objects serialized piece by piece (a list, a document, its relation, a
 * related document); below them one `JSON.stringify` call each: a related document, a field.
 */
const PIECE_DEPTH = 3;

/** The 422 of an answer larger than `limit` bytes. */
function answerTooLarge(limit: number) {
  return storeError(
    'budget_exceeded',
    `This answer would be larger than ${limit} bytes, the request's budgets.answerBytes: ask for fewer ` +
      'documents ($limit, $select) or fewer relations ($populate, $fill), or for a higher budgets.answerBytes.',
    { extensions: { budget: 'answerBytes', limit } },
  );
}

/** The pieces of one answer, counted: characters as they come (never more than its bytes). */
class Pieces {
  readonly #parts: string[] = [];
  #chars = 0;
  constructor(readonly limit: number) {}

  add(text: string): void {
    this.#chars += text.length;
    // A UTF-8 byte or more per UTF-16 unit: past the budget in characters is past it in bytes.
    if (this.#chars > this.limit) throw answerTooLarge(this.limit);
    this.#parts.push(text);
  }

  done(): { body: string; bytes: number } {
    const body = this.#parts.join('');
    const bytes = Buffer.byteLength(body);
    if (bytes > this.limit) throw answerTooLarge(this.limit);
    return { body, bytes };
  }
}

/** An array or a plain object without `toJSON`: serialized piece by piece. */
function isContainer(value: unknown): value is unknown[] | Record<string, unknown> {
  if (Array.isArray(value)) return true;
  return isPlainObject(value) && typeof value.toJSON !== 'function';
}

/** Writes `value` as `JSON.stringify` would, in pieces down to {@link PIECE_DEPTH}. */
function write(out: Pieces, value: unknown[] | Record<string, unknown>, depth: number): void {
  const inPieces = (member: unknown): member is unknown[] | Record<string, unknown> =>
    depth + 1 < PIECE_DEPTH && isContainer(member);
  if (Array.isArray(value)) {
    out.add('[');
    for (const [i, member] of value.entries()) {
      if (i > 0) out.add(',');
      if (inPieces(member)) write(out, member, depth + 1);
      else out.add(JSON.stringify(member) ?? 'null');
    }
    out.add(']');
    return;
  }
  out.add('{');
  let first = true;
  for (const key of Object.keys(value)) {
    const member = value[key];
    const text = inPieces(member) ? '' : JSON.stringify(member);
    // Members JSON leaves out: undefined, functions, symbols.
    if (text === undefined) continue;
    out.add(`${first ? '' : ','}${JSON.stringify(key)}:${text}`);
    first = false;
    if (inPieces(member)) write(out, member, depth + 1);
  }
  out.add('}');
}

/**
 * `data` as `JSON.stringify` gives it, with its byte length; past `limit` bytes, 422
 * `budget_exceeded` naming `budgets.answerBytes`, thrown once the pieces written so far pass it.
 */
export function jsonWithin(data: unknown, limit: number): { body: string; bytes: number } {
  const out = new Pieces(limit);
  if (isContainer(data)) write(out, data, 0);
  else out.add(JSON.stringify(data) ?? 'null');
  return out.done();
}

/**
 * How the answer of `ctx` is serialized: a read's within its `budgets.answerBytes`; `undefined`
 * (plain JSON) for writes, whose answers their body already bounds (`bodyLimit`) and which must
 * not be refused once committed.
 */
export function answerSerializer(ctx: RequestContext): Serialize | undefined {
  const limit = ctx.budgets?.answerBytes;
  if (limit === undefined || ctx.operation !== 'read') return undefined;
  return (data) => jsonWithin(data, limit);
}
