/**
 * Finds runs of consecutive words that a lesson shares with a seed article.
 * The seeds are source material for facts only; every sentence is to be written afresh,
 * so any shared run of RUN_LENGTH words or more is reported.
 */
export const RUN_LENGTH = 8;

/** Lower-cases, drops punctuation and MDX/JSX tags, keeps letters (with diacritics) and digits. */
export function words(text: string): string[] {
  return text
    .replace(/^---[\s\S]*?---/, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/https?:\/\/[^\s)\]"'>]+/g, ' ')
    .normalize('NFC')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
}

export interface SharedRun {
  words: string;
  at: number;
}

export function sharedRuns(text: string, seed: string, runLength = RUN_LENGTH): SharedRun[] {
  const seedWords = words(seed);
  const seen = new Set<string>();
  for (let i = 0; i + runLength <= seedWords.length; i++) {
    seen.add(seedWords.slice(i, i + runLength).join(' '));
  }
  const mine = words(text);
  const runs: SharedRun[] = [];
  let lastHit = -runLength;
  for (let i = 0; i + runLength <= mine.length; i++) {
    const run = mine.slice(i, i + runLength).join(' ');
    if (!seen.has(run)) continue;
    // Overlapping windows of one copied passage are reported once.
    if (i - lastHit >= runLength) runs.push({ words: run, at: i });
    lastHit = i;
  }
  return runs;
}
