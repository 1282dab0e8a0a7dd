/**
 * "Did you mean": a query is corrected word by word to the nearest word the course uses, for each
 * word that is neither a word of the course nor the start of one. Pure.
 *
 * Pagefind matches prefixes ("jitte" finds "jitter") and, since 1.x, ignores diacritics, but it has
 * no typo tolerance: "jiter" finds nothing. Rather than a fuzzy index (Pagefind has none; a second
 * engine would ship a second index), the site builds a list of the words of its lessons and glossary
 * (/<lang>/search-words.json, fetched on the first search) and corrects each word of the query that
 * is not in the list, nor the start of a word in it, to the most frequent word at the smallest edit distance:
 * one edit for words of up to five letters, two for longer ones (insertion, deletion, substitution,
 * or two neighbours swapped). See docs/search.md.
 */
import { stripDiacritics } from './search-query.ts';

/** A word of the course and how often it occurs, most frequent first. */
export type Vocabulary = ReadonlyArray<readonly [word: string, count: number]>;

/** Words for the list: letters (any script, with their marks) and digits, at least three, lower case. */
const WORD = /[\p{L}\p{M}][\p{L}\p{M}\p{N}-]{2,}/gu;

/** The text of a lesson's source as a reader sees it: no markup, no code, no links' addresses. */
export function readableText(source: string): string {
  return source
    .replace(/^---[\s\S]*?\n---/, ' ') // front matter
    .replace(/```[\s\S]*?```/g, ' ') // code blocks
    .replace(/^(?:import|export)\s.*$/gm, ' ')
    .replace(/<[^>]*>/g, ' ') // tags and components
    .replace(/\{[^}]*\}/g, ' ') // expressions
    .replace(/\]\([^)]*\)/g, ' ') // link targets
    .replace(/https?:\/\/\S+/g, ' ');
}

/** Every word of the texts with its count, most frequent first (ties alphabetical). */
export function buildVocabulary(texts: readonly string[]): Array<[string, number]> {
  const counts = new Map<string, number>();
  for (const text of texts) {
    for (const m of text.normalize('NFC').toLowerCase().matchAll(WORD)) {
      const word = m[0].replace(/-+$/, '');
      if (word.length >= 3) counts.set(word, (counts.get(word) ?? 0) + 1);
    }
  }
  return [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
}

/** Edit distance with adjacent swaps (optimal string alignment), stopping early past `max`. */
export function editDistance(a: string, b: string, max = Infinity): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const rows: number[][] = [Array.from({ length: b.length + 1 }, (_, j) => j)];
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1]![j]! + 1, row[j - 1]! + 1, rows[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, rows[i - 2]![j - 2]! + 1);
      row.push(d);
      best = Math.min(best, d);
    }
    if (best > max) return max + 1;
    rows.push(row);
  }
  return rows[a.length]![b.length]!;
}

const fold = (word: string) => stripDiacritics(word).toLowerCase();

/** The edits a word of this length may be away from its correction. */
const allowed = (length: number) => (length < 4 ? 0 : length <= 5 ? 1 : 2);

/** The nearest word of the list to `word`, or undefined when it is in the list or nothing is near. */
export function nearestWord(word: string, vocabulary: Vocabulary): string | undefined {
  const folded = fold(word);
  const max = allowed(folded.length);
  if (max === 0) return undefined;
  let best: { word: string; distance: number } | undefined;
  for (const [candidate] of vocabulary) {
    const other = fold(candidate);
    // A word of the course typed right (with or without marks), or the start of one (still typing:
    // Pagefind finds "jitte" by its prefix).
    if (other.startsWith(folded)) return undefined;
    const distance = editDistance(folded, other, max);
    // Most frequent first, so the first word at the smallest distance is the one to take.
    if (distance <= max && (!best || distance < best.distance)) best = { word: candidate, distance };
  }
  return best?.word;
}

/** The query with each word that is not the course's replaced by its nearest; undefined when nothing changed. */
export function correctedQuery(query: string, vocabulary: Vocabulary): string | undefined {
  let changed = false;
  const corrected = query.replace(/[\p{L}\p{M}][\p{L}\p{M}\p{N}-]*/gu, (word) => {
    const near = nearestWord(word, vocabulary);
    if (!near) return word;
    changed = true;
    return near;
  });
  return changed ? corrected : undefined;
}
