/** Multipliers of the units `bodyLimit` accepts (1024-based, as the `bytes` package). */
const UNITS = {
  b: 1,
  kb: 1024,
  mb: 1024 ** 2,
  gb: 1024 ** 3,
} as const satisfies Record<string, number>;

const BYTE_SIZE = /^(\d+(?:\.\d+)?)\s*(b|kb|mb|gb)?$/i;

/**
 * A size in bytes from a non-negative integer or a string such as `"512kb"`, `"1mb"`,
 * `"1.5mb"` or `"2048"`. Returns `undefined` for anything else.
 */
export function parseByteSize(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 ? value : undefined;
  if (typeof value !== 'string') return undefined;
  const match = BYTE_SIZE.exec(value.trim());
  if (!match) return undefined;
  const unit = (match[2]?.toLowerCase() ?? 'b') as keyof typeof UNITS;
  const bytes = Math.floor(Number(match[1]) * UNITS[unit]);
  return Number.isSafeInteger(bytes) ? bytes : undefined;
}
