/**
 * What one learner's files look like, for the instructor's eyes: a file unlike any of the course's
 * solutions (huge, very many lines, a line thousands of characters long, where hostile input hides),
 * Unicode controls that make an editor show code in another order than it runs ("Trojan Source",
 * CVE-2021-42574), and a file that is mostly literal values (a table of answers). One linear pass
 * over each file, plus one scan for its tokens. Pure.
 */
import type { Flag } from './flags.ts';
import { LITERAL_SHARE, literalShare, MIN_LITERALS } from './similarity.ts';

/**
 * Past any of these a file is flagged: many times what the course's own solutions, alternatives and
 * starters need (flags.test.ts checks that none of them is flagged).
 */
export const UNUSUAL = { bytes: 64 * 1024, lines: 2000, lineChars: 1000 } as const;

// Bidirectional embeddings, overrides and isolates, and the marks: what reorders displayed text.
const BIDI = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/;

export function fileFlags(files: Record<string, string>): Flag[] {
  const out: Flag[] = [];
  for (const file of Object.keys(files).sort()) {
    const text = files[file]!;
    let lines = 1;
    let longest = 0;
    let start = 0;
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) {
      longest = Math.max(longest, i - start);
      start = i + 1;
      lines++;
    }
    longest = Math.max(longest, text.length - start);
    const bytes = Buffer.byteLength(text);
    if (bytes > UNUSUAL.bytes || lines > UNUSUAL.lines || longest > UNUSUAL.lineChars) {
      out.push({ kind: 'unusual-file', file, kb: Math.ceil(bytes / 1024), lines, longestLine: longest });
    }
    if (BIDI.test(text)) out.push({ kind: 'bidi', file });
    const { share, literals } = literalShare(text);
    if (share >= LITERAL_SHARE && literals >= MIN_LITERALS) out.push({ kind: 'literal-data', file, percent: Math.round(share * 100), literals });
  }
  return out;
}
