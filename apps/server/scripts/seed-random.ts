/**
 * A small seeded pseudo-random generator (mulberry32) for the bulk demo data: much faster than faker for
 * millions of numbers, and repeatable for a given seed.
 */

/** Draws numbers from one seeded sequence. */
export type SeedRandom = {
  /** A float in [0, 1). */
  next: () => number;
  /** A whole number from `min` to `max`, both included. */
  int: (min: number, max: number) => number;
  /** True with probability `probability`. */
  chance: (probability: number) => boolean;
  /** One element of a non-empty list. */
  pick: <T>(items: ReadonlyArray<T>) => T;
  /** One element, each with its weight (weights need not add up to 1). */
  weighted: <T>(items: ReadonlyArray<readonly [T, number]>) => T;
};

/** Creates a generator whose sequence depends only on `seed`. */
export function createSeedRandom(seed: number): SeedRandom {
  let state = seed >>> 0 || 0x9e3779b9;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  return {
    next,
    int,
    chance: (probability) => next() < probability,
    pick: <T>(items: ReadonlyArray<T>) => {
      if (items.length === 0) throw new Error('pick from an empty list');
      return items[int(0, items.length - 1)] as T;
    },
    weighted: <T>(items: ReadonlyArray<readonly [T, number]>) => {
      const total = items.reduce((sum, [, weight]) => sum + weight, 0);
      let roll = next() * total;
      for (const [item, weight] of items) {
        roll -= weight;
        if (roll < 0) return item;
      }
      const last = items.at(-1);
      if (!last) throw new Error('pick from an empty list');
      return last[0];
    },
  };
}

/** Milliseconds in a day. */
export const DAY_MS = 86_400_000;

/** Midnight UTC of `date`'s day. */
export function utcMidnight(date: Date): number {
  return Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate());
}

/** The indexes of `values`, ordered by ascending value (ties keep their order). */
export function ascendingOrder(values: Int32Array): Uint32Array {
  const order = new Uint32Array(values.length);
  for (let index = 0; index < order.length; index += 1) order[index] = index;
  order.sort((a, b) => (values[a] ?? 0) - (values[b] ?? 0) || a - b);
  return order;
}
