/** A small seeded generator (mulberry32): the demo data is the same on every machine. */
export interface SeededRandom {
  next(): number;
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  /** One of the values, each with the chance of its weight (the weights need not add up to 100). */
  weighted<T>(entries: readonly (readonly [T, number])[]): T;
  /** An RFC 4122 version-4-shaped uuid drawn from the generator, so event ids repeat across runs. */
  uuid(): string;
  /** An 8-character id, like the product's random ids. */
  id8(): string;
}

export function seededRandom(seed: number): SeededRandom {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const hex = (n: number) =>
    Array.from({ length: n }, () => Math.floor(next() * 16).toString(16)).join('');
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
  return {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    pick: (items) => items[Math.floor(next() * items.length)]!,
    weighted: (entries) => {
      const total = entries.reduce((sum, [, weight]) => sum + weight, 0);
      let x = next() * total;
      for (const [value, weight] of entries) {
        if (x < weight) return value;
        x -= weight;
      }
      return entries[entries.length - 1]![0];
    },
    uuid: () =>
      `${hex(8)}-${hex(4)}-4${hex(3)}-${'89ab'[Math.floor(next() * 4)]}${hex(3)}-${hex(12)}`,
    id8: () =>
      Array.from({ length: 8 }, () => alphabet[Math.floor(next() * alphabet.length)]).join(''),
  };
}
