import { ObjectId } from 'bson';

/** A value a reference field may hold: string, number or ObjectId. */
export type IdValue = string | number | ObjectId;

const HEX24 = /^[0-9a-fA-F]{24}$/;
const INTEGER = /^-?[0-9]{1,16}$/;

/**
 * True for an ObjectId from any copy of `bson` (the driver may carry its own), checked by
 * shape rather than `instanceof`.
 */
export function isObjectId(value: unknown): value is ObjectId {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { _bsontype?: unknown })._bsontype === 'ObjectId' &&
    typeof (value as { toHexString?: unknown }).toHexString === 'function'
  );
}

function integerOf(text: string): number | undefined {
  if (text.length > 17 || !INTEGER.test(text)) return undefined;
  const n = Number(text);
  return Number.isSafeInteger(n) && String(n) === text ? n : undefined;
}

/** The variants of one id with their join key ({@link idKey}), computed together. */
interface KeyedVariants {
  readonly key: string;
  readonly variants: IdValue[];
}

function stringVariants(text: string): KeyedVariants {
  const variants: IdValue[] = [text];
  const n = integerOf(text);
  if (n !== undefined) variants.push(n);
  if (!HEX24.test(text)) return { key: text, variants };
  const lower = text.toLowerCase();
  if (lower !== text) variants.push(lower);
  variants.push(new ObjectId(lower));
  return { key: lower, variants };
}

function keyedVariants(id: unknown): KeyedVariants | undefined {
  if (typeof id === 'string') return stringVariants(id);
  if (typeof id === 'number')
    return Number.isFinite(id) ? { key: String(id), variants: [id, String(id)] } : undefined;
  if (isObjectId(id)) {
    const hex = id.toHexString();
    return { key: hex, variants: [id, hex] };
  }
  return undefined;
}

/**
 * Every value a reference may hold for one id: the id itself, its string form, the number
 * when the string is a canonical integer (`"7"`, not `"07"`), the ObjectId when it is 24 hex
 * digits, and the hex string of an ObjectId. Any other kind (null, boolean, Date, object)
 * has no variants and never joins.
 */
export function idVariants(id: unknown): IdValue[] {
  return keyedVariants(id)?.variants ?? [];
}

/**
 * Canonical join key of an id: equal for every value {@link idVariants} lists for it
 * (`1`, `"1"` -> `"1"`; an ObjectId and its hex string in either case -> lower-case hex).
 * `undefined` for kinds that never join.
 */
export function idKey(id: unknown): string | undefined {
  if (typeof id === 'string') return HEX24.test(id) ? id.toLowerCase() : id;
  if (typeof id === 'number') return Number.isFinite(id) ? String(id) : undefined;
  if (isObjectId(id)) return id.toHexString();
  return undefined;
}

/** True when two variants are the same value (ObjectIds compared by hex). */
function sameVariant(a: IdValue, b: IdValue): boolean {
  if (typeof a !== 'object' || typeof b !== 'object') return a === b;
  return a.toHexString() === b.toHexString();
}

/**
 * The variants of many ids, each once. Ids of one key (`1` and `"1"`, a hex string and its
 * ObjectId) have the same variants but for the case of hex strings, so variants are gathered
 * per key: the first id of a key gives its variants, a later one adds any it lacks.
 */
export function idVariantsOf(ids: Iterable<unknown>): IdValue[] {
  const byKey = new Map<string, IdValue[]>();
  for (const id of ids) {
    const keyed = keyedVariants(id);
    if (keyed === undefined) continue;
    const known = byKey.get(keyed.key);
    if (known === undefined) byKey.set(keyed.key, keyed.variants);
    else
      for (const variant of keyed.variants)
        if (!known.some((k) => sameVariant(k, variant))) known.push(variant);
  }
  const out: IdValue[] = [];
  for (const variants of byKey.values()) for (const variant of variants) out.push(variant);
  return out;
}
