/**
 * MongoDB wire-protocol framing: the 16-byte header, OP_MSG (2013; a kind 0 body and kind 1
 * document sequences, the checksum tolerated and not checked) and the legacy OP_QUERY (2004)
 * drivers send for their first `hello`, answered with OP_REPLY (1). Documents are BSON, read and
 * written with the `bson` package.
 */
import type { Document } from '@store/common';
import { deserialize, serialize } from 'bson';

const OP_REPLY = 1;
const OP_QUERY = 2004;
const OP_MSG = 2013;

const HEADER_BYTES = 16;
/** The largest message accepted (what `hello` advertises as maxMessageSizeBytes). */
const MAX_MESSAGE_BYTES = 48_000_000;

const CHECKSUM_PRESENT = 1;
const MORE_TO_COME = 2;

/** A request, its sections merged into one command document. */
export interface WireRequest {
  requestId: number;
  opCode: typeof OP_MSG | typeof OP_QUERY;
  command: Document;
  /** OP_MSG with moreToCome: the client expects no reply. */
  noReply: boolean;
}

/** A framing error: the connection is closed. */
class ProtocolError extends Error {}

/** Splits a byte stream into whole messages. */
export class MessageReader {
  #pending: Buffer = Buffer.alloc(0);

  /** Adds `chunk` and returns every message it completes. */
  push(chunk: Buffer): Buffer[] {
    this.#pending = this.#pending.length === 0 ? chunk : Buffer.concat([this.#pending, chunk]);
    const messages: Buffer[] = [];
    while (this.#pending.length >= 4) {
      const length = this.#pending.readInt32LE(0);
      if (length < HEADER_BYTES || length > MAX_MESSAGE_BYTES) {
        throw new ProtocolError(`bad message length ${length}`);
      }
      if (this.#pending.length < length) break;
      messages.push(this.#pending.subarray(0, length));
      this.#pending = this.#pending.subarray(length);
    }
    return messages;
  }
}

const readDocument = (bytes: Buffer, at: number): { doc: Document; end: number } => {
  const size = bytes.readInt32LE(at);
  if (size < 5 || at + size > bytes.length) throw new ProtocolError('truncated BSON document');
  return { doc: deserialize(bytes.subarray(at, at + size)) as Document, end: at + size };
};

const readCString = (bytes: Buffer, at: number): { text: string; end: number } => {
  const nul = bytes.indexOf(0, at);
  if (nul === -1) throw new ProtocolError('unterminated string');
  return { text: bytes.toString('utf8', at, nul), end: nul + 1 };
};

function parseMsg(message: Buffer): { command: Document; noReply: boolean } {
  const flags = message.readUInt32LE(HEADER_BYTES);
  const end = flags & CHECKSUM_PRESENT ? message.length - 4 : message.length;
  let at = HEADER_BYTES + 4;
  let body: Document | undefined;
  const sequences: Array<[string, Document[]]> = [];
  while (at < end) {
    const kind = message.readUInt8(at);
    at += 1;
    if (kind === 0) {
      ({ doc: body, end: at } = readDocument(message, at));
    } else if (kind === 1) {
      const sectionEnd = at + message.readInt32LE(at);
      const { text: identifier, end: docsAt } = readCString(message, at + 4);
      const docs: Document[] = [];
      for (let next = docsAt; next < sectionEnd; ) {
        const read = readDocument(message, next);
        docs.push(read.doc);
        next = read.end;
      }
      sequences.push([identifier, docs]);
      at = sectionEnd;
    } else {
      throw new ProtocolError(`unknown OP_MSG section kind ${kind}`);
    }
  }
  if (!body) throw new ProtocolError('OP_MSG without a body section');
  for (const [identifier, docs] of sequences) body[identifier] = docs;
  return { command: body, noReply: (flags & MORE_TO_COME) !== 0 };
}

/** OP_QUERY on `<db>.$cmd`: the command, unwrapped from `$query`, with `$db` set. */
function parseQuery(message: Buffer): Document {
  const { text: namespace, end } = readCString(message, HEADER_BYTES + 4);
  const { doc } = readDocument(message, end + 8);
  const dot = namespace.indexOf('.');
  if (dot === -1 || namespace.slice(dot + 1) !== '$cmd') {
    throw new ProtocolError(`OP_QUERY is only answered on <db>.$cmd, not ${namespace}`);
  }
  const command = (typeof doc.$query === 'object' && doc.$query !== null ? doc.$query : doc) as Document;
  return { ...command, $db: namespace.slice(0, dot) };
}

/** Reads one whole message. */
export function parseMessage(message: Buffer): WireRequest {
  const requestId = message.readInt32LE(4);
  const opCode = message.readInt32LE(12);
  if (opCode === OP_MSG) return { requestId, opCode, ...parseMsg(message) };
  if (opCode === OP_QUERY) return { requestId, opCode, command: parseQuery(message), noReply: false };
  throw new ProtocolError(`unsupported opCode ${opCode}`);
}

let nextResponseId = 1;

function header(length: number, responseTo: number, opCode: number): Buffer {
  const bytes = Buffer.alloc(HEADER_BYTES);
  bytes.writeInt32LE(length, 0);
  bytes.writeInt32LE(nextResponseId++ & 0x7fffffff, 4);
  bytes.writeInt32LE(responseTo, 8);
  bytes.writeInt32LE(opCode, 12);
  return bytes;
}

const toBson = (doc: Document): Buffer => Buffer.from(serialize(doc, { ignoreUndefined: true }));

/** The reply to `request` in the opcode the request used. */
export function encodeReply(request: WireRequest, doc: Document): Buffer {
  const body = toBson(doc);
  if (request.opCode === OP_MSG) {
    const prefix = Buffer.alloc(5); // flagBits 0, then section kind 0
    return Buffer.concat([header(HEADER_BYTES + 5 + body.length, request.requestId, OP_MSG), prefix, body]);
  }
  const fields = Buffer.alloc(20); // responseFlags 0, cursorID 0 (int64), startingFrom 0, numberReturned
  fields.writeInt32LE(1, 16);
  return Buffer.concat([header(HEADER_BYTES + 20 + body.length, request.requestId, OP_REPLY), fields, body]);
}
