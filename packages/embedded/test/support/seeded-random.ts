/** A small seeded PRNG (mulberry32) giving numbers in [0, 1), so every run tests the same cases. */
export function prng(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Picks one of `items` (which must not be empty) with each draw of `random`. */
export function picker(random: () => number): <T>(items: readonly T[]) => T {
  return <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
}

/** Integers in [0, n) from a seeded {@link prng}: `int(n)` draws one. */
export function seededIntegers(seed: number): (n: number) => number {
  const random = prng(seed);
  return (n) => Math.floor(random() * n);
}
