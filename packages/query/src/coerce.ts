import { ObjectId } from 'bson';

/** A coercion turns one parameter value into a typed value, or `undefined` when it cannot. */
type Coercion = (value: string) => unknown;

const NUMBER = /^-?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
const INTEGER = /^-?\d+$/;
const ISO_DATE =
  /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;
const HEX24 = /^[0-9a-fA-F]{24}$/;
/** Largest epoch-milliseconds magnitude a JavaScript Date holds. */
const MAX_EPOCH_MS = 8.64e15;

/**
 * The number a value reads as, or `undefined`. Decimal notation only (no hex, no spaces,
 * no leading `+`); integers beyond 2^53 do not read as numbers, so long ids stay exact.
 */
export function toNumber(value: string): number | undefined {
  if (!NUMBER.test(value)) return undefined;
  const n = Number(value);
  if (!Number.isFinite(n)) return undefined;
  if (INTEGER.test(value) && !Number.isSafeInteger(n)) return undefined;
  return n;
}

function toBoolean(value: string): boolean | undefined {
  if (value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0') return false;
  return undefined;
}

/**
 * ISO 8601 (`2024-05-01`, `2024-05-01T10:00`, `...:00.000Z`, `...+02:00`) or epoch
 * milliseconds. A date-time without an offset is UTC (not the server's zone). Impossible
 * calendar dates (`2024-02-30`) are rejected.
 */
function toDate(value: string): Date | undefined {
  if (INTEGER.test(value)) {
    const ms = Number(value);
    return Math.abs(ms) <= MAX_EPOCH_MS ? new Date(ms) : undefined;
  }
  const m = ISO_DATE.exec(value);
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s, zone] = m;
  const iso = h === undefined ? `${value}T00:00:00Z` : zone === undefined ? `${value}Z` : value;
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return undefined;
  // Reject roll-overs (2024-02-30 -> 2024-03-01) by checking the calendar fields.
  const check = new Date(
    Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h ?? 0), Number(mi ?? 0), Number(s ?? 0)),
  );
  if (check.getUTCDate() !== Number(d) || check.getUTCMonth() !== Number(mo) - 1) return undefined;
  if (Number(h ?? 0) > 23 || Number(mi ?? 0) > 59 || Number(s ?? 0) > 59) return undefined;
  return date;
}

function toObjectId(value: string): ObjectId | undefined {
  return HEX24.test(value) ? new ObjectId(value) : undefined;
}

/** The `:bool`, `:date`, `:id`, `:number` suffixes, and what each accepts (for error messages). */
export const COERCIONS = {
  bool: { coerce: toBoolean, accepts: 'true, false, 1 or 0' },
  date: { coerce: toDate, accepts: 'an ISO 8601 date or epoch milliseconds' },
  id: { coerce: toObjectId, accepts: '24 hexadecimal digits' },
  number: { coerce: toNumber, accepts: 'a finite number' },
} as const satisfies Record<string, { coerce: Coercion; accepts: string }>;

export type CoercionName = keyof typeof COERCIONS;

export function isCoercionName(name: string): name is CoercionName {
  return Object.hasOwn(COERCIONS, name);
}

/**
 * Every value plain equality matches for `value`: the string itself, plus the number when
 * it reads as one, plus the boolean for `true`/`false`.
 */
export function equalityForms(value: string): unknown[] {
  const n = toNumber(value);
  if (n !== undefined) return [value, n];
  if (value === 'true') return [value, true];
  if (value === 'false') return [value, false];
  return [value];
}
