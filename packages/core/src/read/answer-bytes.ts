/**
 * The bytes budget of a read's answer (`budgets.answerBytes`): the answer is serialized in
 * pieces (the page's documents, their fields, the related documents they carry), counting as it
 * goes, and refused as soon as it is past the budget: an answer many times larger is never built
 * whole, and never sent in part. A large answer is serialized in slices of about
 * {@link SLICE_MS}, letting other requests run in between, as the embedded engine's scans do.
 */
import { setImmediate as nextTurn } from 'node:timers/promises';
import { isPlainObject } from '@store/common';
import { type JsonText, jsonText } from '../http/respond';
import type { RequestContext } from '../model/context';
import { storeError } from '../model/error-codes';
import { wantsRelations } from './relations';

/**
 * Levels of arrays and objects serialized piece by piece when the answer carries relations (a
 * list, a document, its relation, a related document); below them one `JSON.stringify` call
 * each: a related document, a field. Without relations, only a list is, a few documents per
 * call ({@link writePage}).
 */
const RELATION_LEVELS = 3;
/**
 * A list without relations is written one document first, then pieces of at most this many
 * documents, each piece as many as fit a {@link PAGE_PIECE_SHARE} of what the budget leaves at
 * the size per document seen so far; a page of one piece's worth is written in one call when
 * its first document says it fits ({@link inOneCall}). A page of small documents costs about one
 * call (one per document cost a quarter more), and an answer is refused within one piece past
 * the budget (about a document when its documents are large from the start).
 */
const PAGE_PIECE_AT_MOST = 32;
const PAGE_PIECE_SHARE = 1 / 4;
/**
 * With relations, an array or object holding at most this many arrays and objects is written in
 * one call (a document and its few related documents): pieces only where there are many.
 */
const WHOLE_AT_MOST = 16;
/** Milliseconds of serializing between two pauses (the embedded engine's slice too). */
const SLICE_MS = 4;
/** Characters written between two looks at the clock (well under a millisecond of serializing). */
const LOOK_EVERY_CHARS = 64 * 1024;

/** The 422 of an answer larger than `limit` bytes. */
function answerTooLarge(limit: number) {
  return storeError(
    'budget_exceeded',
    `This answer would be larger than ${limit} bytes, the request's budgets.answerBytes: ask for fewer ` +
      'documents ($limit, $select) or fewer relations ($populate, $fill), or for a higher budgets.answerBytes.',
    { extensions: { budget: 'answerBytes', limit } },
  );
}

/**
 * The pieces of one answer, counted: characters as they come (never more than its bytes), and
 * whether the current slice is over (looked at every {@link LOOK_EVERY_CHARS} characters).
 */
class Pieces {
  readonly #parts: string[] = [];
  #chars = 0;
  #nextLook = LOOK_EVERY_CHARS;
  #sliceEnd: number;
  /** True once the slice is over: the serializer pauses at its next step. */
  due = false;

  constructor(
    readonly limit: number,
    readonly sliceMs: number,
  ) {
    this.#sliceEnd = performance.now() + sliceMs;
  }

  /** Characters written so far. */
  get chars(): number {
    return this.#chars;
  }

  add(text: string): void {
    this.#chars += text.length;
    // A UTF-8 byte or more per UTF-16 unit: past the budget in characters is past it in bytes.
    if (this.#chars > this.limit) throw answerTooLarge(this.limit);
    this.#parts.push(text);
    if (this.#chars >= this.#nextLook) {
      this.#nextLook = this.#chars + LOOK_EVERY_CHARS;
      this.due = performance.now() >= this.#sliceEnd;
    }
  }

  /** Starts the next slice (after a pause). */
  resume(): void {
    this.due = false;
    this.#sliceEnd = performance.now() + this.sliceMs;
  }

  done(): JsonText {
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

/**
 * Whether `value` holds at most `left` arrays and objects, at any depth (looked at only until it
 * holds more): {@link WHOLE_AT_MOST}.
 */
function holdsFew(value: unknown[] | Record<string, unknown>, left = WHOLE_AT_MOST): boolean {
  return containersLeft(value, left) >= 0;
}

function containersLeft(value: unknown[] | Record<string, unknown>, left: number): number {
  const visit = (member: unknown): number =>
    typeof member === 'object' && member !== null && isContainer(member)
      ? containersLeft(member, left - 1)
      : left;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length && left >= 0; i++) left = visit(value[i]);
    return left;
  }
  for (const key in value) {
    left = visit(value[key]);
    if (left < 0) return left;
  }
  return left;
}

/**
 * Writes an answer with relations as `JSON.stringify` would, in pieces down to
 * {@link RELATION_LEVELS} of containers (only the containers that hold many: {@link WHOLE_AT_MOST}),
 * yielding between two pieces once the slice is over.
 */
function* write(out: Pieces, value: unknown[] | Record<string, unknown>, depth: number): Generator<void> {
  const inPieces = (member: unknown): member is unknown[] | Record<string, unknown> =>
    depth + 1 < RELATION_LEVELS && isContainer(member) && !holdsFew(member);
  if (Array.isArray(value)) {
    out.add('[');
    for (let i = 0; i < value.length; i++) {
      const member = value[i];
      if (i > 0) out.add(',');
      if (inPieces(member)) yield* write(out, member, depth + 1);
      else out.add(JSON.stringify(member) ?? 'null');
      if (out.due) yield;
    }
    out.add(']');
    return;
  }
  out.add('{');
  let first = true;
  for (const key of Object.keys(value)) {
    const member = value[key];
    const split = inPieces(member);
    const text = split ? '' : JSON.stringify(member);
    // Members JSON leaves out: undefined, functions, symbols.
    if (text === undefined) continue;
    out.add(`${first ? '' : ','}${JSON.stringify(key)}:${text}`);
    first = false;
    if (split) yield* write(out, member, depth + 1);
    if (out.due) yield;
  }
  out.add('}');
}

/**
 * Writes the list `docs` as `JSON.stringify` would, in pieces of a few documents (one call each,
 * see {@link PAGE_PIECE_AT_MOST}), yielding between two pieces once the slice is over.
 */
function* writePage(out: Pieces, docs: unknown[]): Generator<void> {
  out.add('[');
  let perDocument = 1;
  for (let at = 0; at < docs.length; ) {
    const room = Math.floor(((out.limit - out.chars) * PAGE_PIECE_SHARE) / perDocument);
    const count = at === 0 ? 1 : Math.max(1, Math.min(PAGE_PIECE_AT_MOST, room));
    const piece = JSON.stringify(docs.slice(at, at + count));
    out.add(at === 0 ? piece.slice(1, -1) : `,${piece.slice(1, -1)}`);
    perDocument = Math.max(perDocument, piece.length / count);
    at += count;
    if (out.due) yield;
  }
  out.add(']');
}

/**
 * A container written in one call: a document without relations, a page of one piece's worth of
 * documents ({@link PAGE_PIECE_AT_MOST}) whose count times its first document's size is within a
 * {@link PAGE_PIECE_SHARE} of the budget, or any answer that holds few.
 */
function inOneCall(data: unknown[] | Record<string, unknown>, relations: boolean, limit: number): boolean {
  if (relations) return holdsFew(data);
  if (!Array.isArray(data)) return true;
  if (data.length > PAGE_PIECE_AT_MOST) return false;
  const first = data.length === 0 ? 0 : (JSON.stringify(data[0])?.length ?? 4);
  return data.length * first <= limit * PAGE_PIECE_SHARE;
}

/** `data` in one `JSON.stringify` call, refused past `limit` bytes. */
function oneCall(data: unknown, limit: number): JsonText {
  const text = jsonText(data);
  if (text.bytes > limit) throw answerTooLarge(limit);
  return text;
}

/** How {@link jsonWithin} writes: whether the answer carries relations, the slice (0: a pause at every look at the clock, for tests). */
interface Writing {
  readonly relations?: boolean;
  readonly sliceMs?: number;
}

/**
 * `data` as `JSON.stringify` gives it, with its byte length; past `limit` bytes, 422
 * `budget_exceeded` naming `budgets.answerBytes`, thrown once the pieces written so far pass it.
 * Serialized in slices of about {@link SLICE_MS}: at once (no promise) when it takes less than
 * one, as most answers do.
 */
function textWithin(
  data: unknown,
  limit: number,
  { relations = true, sliceMs = SLICE_MS }: Writing,
): JsonText | Promise<JsonText> {
  if (!isContainer(data) || inOneCall(data, relations, limit)) return oneCall(data, limit);
  const out = new Pieces(limit, sliceMs);
  const steps = relations ? write(out, data, 0) : writePage(out, data as unknown[]);
  return steps.next().done ? out.done() : inSlices(out, steps);
}

/** The rest of `steps` once its first slice is over: a pause before each next slice. */
async function inSlices(out: Pieces, steps: Generator<void>): Promise<JsonText> {
  do {
    await nextTurn();
    out.resume();
  } while (!steps.next().done);
  return out.done();
}

/** {@link textWithin}, always as a promise. */
export async function jsonWithin(data: unknown, limit: number, writing: Writing = {}): Promise<JsonText> {
  return textWithin(data, limit, writing);
}

/**
 * The JSON text of `data`, the answer of `ctx`: a read's within its `budgets.answerBytes`, in
 * slices; a write's as it is, since its body already bounds it (`bodyLimit`) and a committed
 * write must not be refused.
 */
export function answerText(ctx: RequestContext, data: unknown): JsonText | Promise<JsonText> {
  const limit = ctx.budgets?.answerBytes;
  if (limit === undefined || ctx.operation !== 'read') return jsonText(data);
  return textWithin(data, limit, { relations: wantsRelations(ctx) });
}

/** `text`, an answer of `ctx` made earlier, checked as {@link answerText} checks a new one: a read's within its `budgets.answerBytes`. */
export function keptText<T extends JsonText>(ctx: RequestContext, text: T): T {
  const limit = ctx.budgets?.answerBytes;
  if (limit !== undefined && ctx.operation === 'read' && text.bytes > limit) throw answerTooLarge(limit);
  return text;
}
