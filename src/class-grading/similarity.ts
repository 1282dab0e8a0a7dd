/**
 * Copies, found from tokens (tokens.ts), never from text: a submission that is the published
 * reference once whitespace, comments and names are set aside; pairs of submissions that share most
 * of their code; files that are mostly literal values (a table of the suite's answers). Flags for
 * the instructor to read, never a grade. Pure.
 *
 * Shared code is measured as MOSS and Dolos do (Schleimer, Wilkerson and Aiken, "Winnowing", 2003):
 * each run of K_GRAM tokens is hashed, and in every WINDOW of consecutive hashes the smallest is
 * kept; two submissions' similarity is the share of their kept hashes (fingerprints) they have in
 * common (Jaccard), once the starter's fingerprints are taken out of both, since every learner starts
 * from the same starter. Names are ignored (every identifier is the same token) and so are literal
 * values, so renaming variables or changing messages does not hide a copy; any shared run of
 * K_GRAM + WINDOW - 1 tokens (two or three lines of code) is certain to be seen.
 */
import { tokenize, type Token } from './tokens.ts';

export const K_GRAM = 15;
export const WINDOW = 10;
/**
 * Two submissions with at least this share of fingerprints in common are flagged. Measured on the
 * course's own solutions (docs/assignments.md): different solutions of one exercise share at most
 * 0.53 (retry-helper's reference and its recursive-functions alternative), a buggy variant (the
 * reference with one mistake) shares 0.76 to 1.0 with the reference.
 */
export const SIMILAR_AT = 0.7;
/** Fewer fingerprints than this of its own (the starter's taken out): too little code to call a copy. */
export const MIN_FINGERPRINTS = 12;
/** At most this many fingerprints per submission are kept (the smallest: a uniform sample), so a huge file costs no more than this. */
export const MAX_FINGERPRINTS = 4000;
/** A file with at least LITERAL_SHARE of its words and values literal, and at least MIN_LITERALS of them, is flagged. */
export const LITERAL_SHARE = 0.6;
export const MIN_LITERALS = 150;

const LITERALS = new Set(['true', 'false', 'null', 'undefined']);
const isLiteral = (t: Token) =>
  t.kind === 'string' || t.kind === 'number' || t.kind === 'regex' || ((t.kind === 'keyword' || t.kind === 'word') && LITERALS.has(t.text));

/** The files' tokens in path order, each file's on its own (a comment left open hides nothing of the next). */
const tokensOf = (files: Record<string, string>) =>
  Object.keys(files)
    .sort()
    .flatMap((path) => tokenize(files[path]!));

// Names that are the language's or Node's (Math, Date, setTimeout…) mean the same in every file: kept.
const GLOBALS = new Set(Object.getOwnPropertyNames(globalThis));

/**
 * The code with whitespace and comments gone and every name of the learner's own replaced by its
 * order of first appearance (`$0`, `$1`…): two submissions have the same form when they differ only in
 * those. A member after `.` (`Math.ceil`, `samples.sort`) and a global are kept: `ceil` and `floor`
 * are different code, not different names.
 */
export function normalForm(files: Record<string, string>): string {
  const names = new Map<string, string>();
  const tokens = tokensOf(files);
  return tokens
    .map((t, i) => {
      const prev = tokens[i - 1];
      if (t.kind !== 'word' || GLOBALS.has(t.text) || (prev?.kind === 'punct' && (prev.text === '.' || prev.text === '?.'))) return `${t.kind[0]}${t.text}`;
      let name = names.get(t.text);
      if (name === undefined) names.set(t.text, (name = `$${names.size}`));
      return name;
    })
    .join('\u0000');
}

// FNV-1a, 32 bits: the same token always hashes the same, in every submission.
function hashText(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

const shape = (t: Token) => (t.kind === 'word' ? 'I' : t.kind === 'string' ? 'S' : t.kind === 'number' ? 'N' : t.kind === 'regex' ? 'R' : t.text);
const BASE = 0x01000193;

/** The winnowed fingerprints of the files' tokens (names and literal values ignored). */
export function fingerprints(files: Record<string, string>): Set<number> {
  const hashes = tokensOf(files).map((t) => hashText(shape(t)));
  const out = new Set<number>();
  if (hashes.length < K_GRAM) return out;
  // A rolling hash of each run of K_GRAM tokens: h = Σ t[i] · BASE^(K_GRAM-1-i), modulo 2^32.
  let top = 1;
  for (let i = 1; i < K_GRAM; i++) top = Math.imul(top, BASE);
  const grams: number[] = [];
  let h = 0;
  for (let i = 0; i < hashes.length; i++) {
    if (i >= K_GRAM) h = (h - Math.imul(hashes[i - K_GRAM]!, top)) | 0;
    h = (Math.imul(h, BASE) + hashes[i]!) | 0;
    if (i >= K_GRAM - 1) grams.push(h >>> 0);
  }
  // In every window of WINDOW consecutive grams, the smallest (the rightmost of equals) is kept.
  for (let start = 0; start + WINDOW <= Math.max(grams.length, WINDOW); start++) {
    let min = start;
    for (let j = start; j < Math.min(start + WINDOW, grams.length); j++) if (grams[j]! <= grams[min]!) min = j;
    out.add(grams[min]!);
  }
  if (out.size <= MAX_FINGERPRINTS) return out;
  return new Set([...out].sort((a, b) => a - b).slice(0, MAX_FINGERPRINTS));
}

/** Jaccard similarity of two sets of fingerprints: shared / all. */
export function similarity(a: ReadonlySet<number>, b: ReadonlySet<number>): number {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let shared = 0;
  for (const h of small) if (large.has(h)) shared++;
  const all = a.size + b.size - shared;
  return all === 0 ? 0 : shared / all;
}

const without = (set: Set<number>, drop: ReadonlySet<number>) => {
  for (const h of drop) set.delete(h);
  return set;
};

export interface Compared {
  key: string;
  /** Who it is, as the flag names them (an e-mail address). */
  who: string;
  files: Record<string, string>;
}

export type CopyFlag = { kind: 'copy-of-reference' } | { kind: 'near-reference'; percent: number } | { kind: 'similar'; percent: number; others: string[] };

/**
 * Each submission's copy flags: the same form as the reference; a share of fingerprints with the
 * reference, or with other submissions, of SIMILAR_AT or more (the starter's fingerprints left out).
 */
export function copyFlags(submissions: Compared[], published: { reference: Record<string, string>; starter: Record<string, string> }): Map<string, CopyFlag[]> {
  const starter = fingerprints(published.starter);
  const referenceForm = normalForm(published.reference);
  const reference = without(fingerprints(published.reference), starter);
  const own = submissions.map((s) => ({ ...s, prints: without(fingerprints(s.files), starter) }));
  const hasReference = Object.keys(published.reference).length > 0;
  const out = new Map<string, CopyFlag[]>();
  for (const [i, s] of own.entries()) {
    const flags: CopyFlag[] = [];
    if (hasReference && normalForm(s.files) === referenceForm) flags.push({ kind: 'copy-of-reference' });
    else if (hasReference && s.prints.size >= MIN_FINGERPRINTS) {
      const share = similarity(s.prints, reference);
      if (share >= SIMILAR_AT) flags.push({ kind: 'near-reference', percent: Math.round(share * 100) });
    }
    if (s.prints.size >= MIN_FINGERPRINTS) {
      let best = 0;
      const others: string[] = [];
      for (const [j, other] of own.entries()) {
        if (i === j || other.prints.size < MIN_FINGERPRINTS) continue;
        const share = similarity(s.prints, other.prints);
        if (share >= SIMILAR_AT) {
          others.push(other.who);
          best = Math.max(best, share);
        }
      }
      if (others.length) flags.push({ kind: 'similar', percent: Math.round(best * 100), others: others.slice(0, 5) });
    }
    if (flags.length) out.set(s.key, flags);
  }
  return out;
}

/**
 * How much of a file is literal values: their share of its words and values, and their count. A
 * name used as an object's key (`{ a1: 5, b2: 7 }`) counts as data too: a table keyed by names is a table.
 */
export function literalShare(text: string): { share: number; literals: number } {
  let literals = 0;
  let words = 0;
  const tokens = tokenize(text);
  for (const [i, t] of tokens.entries()) {
    const prev = tokens[i - 1];
    const key = t.kind === 'word' && tokens[i + 1]?.text === ':' && prev?.kind === 'punct' && (prev.text === '{' || prev.text === ',');
    if (isLiteral(t) || key) literals++;
    else if (t.kind === 'word' || t.kind === 'keyword') words++;
  }
  return { share: literals + words === 0 ? 0 : literals / (literals + words), literals };
}
