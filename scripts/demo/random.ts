// The season's only source of chance: a small seeded generator (mulberry32), so one seed always
// plays the same season. Each visitor draws from a stream of its own (the seed and its number),
// so what one visitor does never depends on how many draws another made, nor on the order in
// which their requests finish.

export type Random = {
  /** A number in [0, 1). */
  next(): number;
  /** True with probability `p`. */
  chance(p: number): boolean;
  /** A whole number in [min, max]. */
  int(min: number, max: number): number;
  /** One of `items`, by their weights (the weights need not sum to 1). */
  weighted<T>(items: readonly (readonly [T, number])[]): T;
  /** A version-4 UUID made of this stream's bits (a visitor id, as crypto.randomUUID makes). */
  uuid(): string;
};

/** 32 bits of a string: FNV-1a, then murmur3's finaliser. */
function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** The stream named by `parts` (the seed, then what it is for: "visitor", 17). */
export function randomStream(...parts: readonly (string | number)[]): Random {
  let state = hash32(parts.join(":"));
  const next = () => {
    // mulberry32
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  return {
    next,
    chance: (p) => next() < p,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    weighted(items) {
      const total = items.reduce((sum, [, weight]) => sum + weight, 0);
      let left = next() * total;
      for (const [item, weight] of items) {
        left -= weight;
        if (left < 0) return item;
      }
      const last = items.at(-1);
      if (!last) throw new Error("weighted: nothing to choose from");
      return last[0];
    },
    uuid() {
      const bytes = Array.from({ length: 16 }, () => Math.floor(next() * 256));
      bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
      bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
      const hex = bytes.map((b) => b.toString(16).padStart(2, "0")).join("");
      return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
    },
  };
}
