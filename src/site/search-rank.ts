/**
 * Re-ranks Pagefind's results for what a learner means. Pagefind scores each word on its own, so
 * common Vietnamese syllables ("cho", "gian") outweigh the page that has the whole phrase "thời gian
 * chờ"; and a word it does not know matches by its first letter ("xyzzyplugh" found "X"). Pure.
 */
import { stripDiacritics } from './search-query.ts';

export interface Candidate {
  title: string;
  /** The page's text (Pagefind's `content`). */
  content: string;
  /** Pagefind's excerpt: page text with the matched words in <mark>. */
  excerpt: string;
}

const fold = (text: string) => stripDiacritics(text).toLowerCase().replace(/\s+/g, ' ');
/** Text compared as written (marks kept), for a query typed with its marks: "chờ" is not "cho". */
const exact = (text: string) => text.normalize('NFC').toLowerCase().replace(/\s+/g, ' ');
const terms = (query: string) =>
  fold(query)
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
const words = (query: string, norm: (t: string) => string) =>
  norm(query)
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);

/** The words Pagefind matched, from the marks in its excerpt. */
export function markedWords(excerpt: string): string[] {
  // Without the punctuation Pagefind keeps on a word ("x)," is the letter x).
  return [...excerpt.matchAll(/<mark>([^<]*)<\/mark>/g)].map((m) => fold(m[1]!).replace(/[^\p{L}\p{N}]+/gu, '')).filter(Boolean);
}

/** Every word matched is a single letter that the learner did not type as a word: a partial match on one letter. */
export function onlyOneLetterMatches(query: string, candidate: Candidate): boolean {
  const typed = new Set(terms(query));
  const marked = markedWords(candidate.excerpt);
  return marked.length > 0 && marked.every((w) => w.length === 1 && !typed.has(w));
}

/**
 * Pages with the whole query as a phrase come first: in the title (2), in the text (1), elsewhere (0).
 * Within a tier Pagefind's own order stands (a count of occurrences would favour long pages).
 */
function phraseTier(query: string, c: Candidate): number {
  // Typed with its marks, the phrase must match them; typed without, any marks match.
  const norm = stripDiacritics(query) === query ? fold : exact;
  const phrase = words(query, norm).join(' ');
  if (!phrase.includes(' ')) return 0;
  return norm(c.title).includes(phrase) ? 2 : norm(c.content).includes(phrase) ? 1 : 0;
}

/** Drops one-letter partial matches; pages with the whole phrase first (stable otherwise: Pagefind's order). */
export function rankResults<T extends Candidate>(query: string, candidates: T[]): T[] {
  return candidates
    .filter((c) => !onlyOneLetterMatches(query, c))
    .map((c, i) => ({ c, i, score: phraseTier(query, c) }))
    .sort((a, b) => b.score - a.score || a.i - b.i)
    .map((x) => x.c);
}
