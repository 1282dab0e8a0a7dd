/** A Math.random replacement seeded from `seedText` (see grader-random.mjs). */
export function seededRandom(seedText: string): () => number;
