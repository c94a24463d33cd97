/** A repeatable pseudo-random source in [0, 1) (a linear congruential generator), so bench data and property-style tests draw the same values every run. */
export function seededRandom(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) & 0x7fffffff;
    return state / 0x7fffffff;
  };
}
