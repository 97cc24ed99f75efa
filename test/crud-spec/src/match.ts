/**
 * The unified test format's value matching ("Evaluating Matches"): expected documents may hold
 * the special operators `$$exists`, `$$type` and `$$unsetOrMatches` (the only ones the CRUD files
 * use; any other is reported as a runner gap, never taken as a match); a root-level actual
 * document may hold fields the expected one does not, a nested one may not; numbers match by
 * value whether 32-bit, 64-bit or double; key order never matters.
 */

type Value = unknown;

/** Why `actual` does not match `expected`, or undefined when it does. */
export type Mismatch = string | undefined;

const isDocument = (value: Value): value is Record<string, Value> =>
  typeof value === 'object' &&
  value !== null &&
  !Array.isArray(value) &&
  bsonType(value) === undefined &&
  !(value instanceof Date);

/** The `_bsontype` of a BSON value object (ObjectId, Long, Int32, Double, Decimal128, Binary, ...). */
function bsonType(value: Value): string | undefined {
  const type = (value as { _bsontype?: unknown } | null)?._bsontype;
  return typeof type === 'string' ? type : undefined;
}

/** A number, 32-bit, 64-bit or double, as a JavaScript number (undefined for anything else). */
function numeric(value: Value): number | undefined {
  if (typeof value === 'number') return value;
  if (typeof value === 'bigint') return Number(value);
  const type = bsonType(value);
  if (type === 'Int32' || type === 'Double') return (value as { value: number }).value;
  if (type === 'Long') return (value as { toNumber(): number }).toNumber();
  return undefined;
}

/** The BSON type names `$$type` takes, as tests over the driver's values can tell them apart. */
function typeMatches(name: string, actual: Value): boolean {
  const number = numeric(actual);
  const type = bsonType(actual);
  switch (name) {
    case 'double':
      return number !== undefined && type !== 'Long' && type !== 'Int32';
    case 'int':
      return number !== undefined && Number.isInteger(number) && type !== 'Long' && type !== 'Double';
    case 'long':
      return number !== undefined && Number.isInteger(number) && type !== 'Int32' && type !== 'Double';
    case 'string':
      return typeof actual === 'string';
    case 'bool':
      return typeof actual === 'boolean';
    case 'null':
      return actual === null;
    case 'date':
      return actual instanceof Date;
    case 'array':
      return Array.isArray(actual);
    case 'object':
      return isDocument(actual);
    case 'objectId':
      return type === 'ObjectId';
    case 'binData':
      return type === 'Binary';
    case 'decimal':
      return type === 'Decimal128';
    case 'timestamp':
      return type === 'Timestamp';
    default:
      throw new Error(`runner gap: $$type '${name}'`);
  }
}

const show = (value: Value): string => {
  try {
    return (
      JSON.stringify(value, (_key, inner) => (typeof inner === 'bigint' ? `${inner}n` : inner)) ??
      String(value)
    );
  } catch {
    return String(value);
  }
};

function scalarMismatch(expected: Value, actual: Value, path: string): Mismatch {
  const expectedNumber = numeric(expected);
  if (expectedNumber !== undefined) {
    const actualNumber = numeric(actual);
    return actualNumber !== undefined &&
      (actualNumber === expectedNumber || (Number.isNaN(actualNumber) && Number.isNaN(expectedNumber)))
      ? undefined
      : `${path}: expected ${show(expected)}, got ${show(actual)}`;
  }
  if (expected instanceof Date) {
    return actual instanceof Date && actual.getTime() === expected.getTime()
      ? undefined
      : `${path}: expected ${show(expected)}, got ${show(actual)}`;
  }
  const type = bsonType(expected);
  if (type !== undefined) {
    // Each tier parses the files with its own BSON library: compare by type and Extended JSON form.
    const same = bsonType(actual) === type && show(actual) === show(expected);
    return same ? undefined : `${path}: expected ${type} ${show(expected)}, got ${show(actual)}`;
  }
  return Object.is(expected, actual) ? undefined : `${path}: expected ${show(expected)}, got ${show(actual)}`;
}

/** The one `$$` operator of an expected value, if it is one. */
function specialOperator(expected: Value): [string, Value] | undefined {
  if (!isDocument(expected)) return undefined;
  const keys = Object.keys(expected);
  const [key] = keys;
  return keys.length === 1 && key?.startsWith('$$') ? [key, expected[key]] : undefined;
}

/** Matches `actual` against `expected`; `root`: the actual document may hold extra fields. */
export function mismatch(expected: Value, actual: Value, root: boolean, path = '(result)'): Mismatch {
  const special = specialOperator(expected);
  if (special) {
    const [operator, operand] = special;
    if (operator === '$$type') {
      const names = Array.isArray(operand) ? operand : [operand];
      return names.some((name) => typeMatches(String(name), actual))
        ? undefined
        : `${path}: expected type ${show(operand)}, got ${show(actual)}`;
    }
    if (operator === '$$unsetOrMatches')
      return actual === undefined ? undefined : mismatch(operand, actual, root, path);
    if (operator === '$$exists') throw new Error(`runner gap: $$exists outside a document, at ${path}`);
    throw new Error(`runner gap: special operator ${operator}`);
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) return `${path}: expected an array, got ${show(actual)}`;
    if (actual.length !== expected.length) {
      return `${path}: expected ${expected.length} elements, got ${actual.length}: ${show(actual)}`;
    }
    for (const [index, element] of expected.entries()) {
      const found = mismatch(element, actual[index], false, `${path}[${index}]`);
      if (found) return found;
    }
    return undefined;
  }
  if (isDocument(expected)) {
    if (!isDocument(actual) && (typeof actual !== 'object' || actual === null)) {
      return `${path}: expected a document, got ${show(actual)}`;
    }
    const fields = actual as Record<string, Value>;
    for (const [key, value] of Object.entries(expected)) {
      const at = `${path}.${key}`;
      const inner = specialOperator(value);
      if (inner?.[0] === '$$exists') {
        if ((key in fields && fields[key] !== undefined) !== Boolean(inner[1])) {
          return `${at}: expected ${inner[1] ? 'present' : 'absent'}`;
        }
        continue;
      }
      if (inner?.[0] === '$$unsetOrMatches' && fields[key] === undefined) continue;
      if (!(key in fields) || fields[key] === undefined) return `${at}: missing (expected ${show(value)})`;
      const found = mismatch(value, fields[key], false, at);
      if (found) return found;
    }
    if (!root) {
      const extra = Object.keys(fields).filter((key) => !(key in expected) && fields[key] !== undefined);
      if (extra.length > 0) return `${path}: unexpected field(s) ${extra.join(', ')}`;
    }
    return undefined;
  }
  return scalarMismatch(expected, actual, path);
}
