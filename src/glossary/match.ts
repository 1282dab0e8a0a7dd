/**
 * Finding glossary terms in text: whole words only (so "retry" is not found in "retryable", and a
 * Vietnamese word is not found inside a longer one), any letter case, Vietnamese letters included. Pure functions, no I/O.
 */
import type { Lang } from '../i18n/index.ts';
import type { Glossary } from './schema.ts';

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** One regular expression for all `phrases`, longest first so "retry budget" wins over "retry". */
export function phrasePattern(phrases: readonly string[]): RegExp | undefined {
  if (phrases.length === 0) return undefined;
  const alternatives = [...new Set(phrases)].sort((a, b) => b.length - a.length).map(escapeRegExp);
  // A phrase must not touch a letter, a digit or "_" on either side.
  return new RegExp(`(?<![\\p{L}\\p{N}_])(?:${alternatives.join('|')})(?![\\p{L}\\p{N}_])`, 'giu');
}

export interface TermMatcher {
  pattern: RegExp | undefined;
  /** Lower-case form -> entry id. */
  owner: Map<string, string>;
  /** Entry id -> its definition, shown as the link's title. */
  definition: Map<string, string>;
}

export function termMatcher(glossary: Glossary, lang: Lang): TermMatcher {
  const owner = new Map<string, string>();
  const definition = new Map<string, string>();
  for (const e of glossary.entries) {
    definition.set(e.id, e[lang].definition);
    for (const form of e[lang].match) owner.set(form.toLowerCase(), e.id);
  }
  return { pattern: phrasePattern([...owner.keys()]), owner, definition };
}

export type Segment = { text: string; entryId?: string };

/**
 * Splits `text` so that the first mention of each term not yet in `seen` becomes its own segment
 * carrying the entry id. `seen` is updated: a lesson passes the same set for all its text.
 */
export function linkFirstMentions(text: string, matcher: TermMatcher, seen: Set<string>): Segment[] {
  if (!matcher.pattern) return [{ text }];
  const out: Segment[] = [];
  let from = 0;
  for (const m of text.matchAll(matcher.pattern)) {
    const id = matcher.owner.get(m[0].toLowerCase());
    if (!id || seen.has(id)) continue;
    seen.add(id);
    if (m.index > from) out.push({ text: text.slice(from, m.index) });
    out.push({ text: m[0], entryId: id });
    from = m.index + m[0].length;
  }
  if (from < text.length || out.length === 0) out.push({ text: text.slice(from) });
  return out;
}

export interface AvoidedTerm {
  entryId: string;
  found: string;
  preferred: string;
  line: number;
}

/** Every use in `text` of a variant the glossary has given up on, with the term to write instead. */
export function findAvoided(text: string, glossary: Glossary, lang: Lang): AvoidedTerm[] {
  const found: AvoidedTerm[] = [];
  for (const e of glossary.entries) {
    const pattern = phrasePattern(e[lang].avoid);
    if (!pattern) continue;
    for (const m of text.matchAll(pattern)) {
      const line = text.slice(0, m.index).split('\n').length;
      found.push({ entryId: e.id, found: m[0], preferred: e[lang].term, line });
    }
  }
  return found.sort((a, b) => a.line - b.line);
}
