/**
 * Whatever a learner chose (a name, a file name, the text of an error their code threw, what their
 * process printed) reaches the gradebook, the report and the terminal only as a short, neutral
 * excerpt: control, format and bidirectional characters (which move the cursor, colour a terminal or
 * reorder what is shown) become U+FFFD, except a zero-width joiner or non-joiner between two letters,
 * which is part of how a name is spelled (Persian, the Indic scripts); runs of whitespace become one
 * space, the grader's own temp folders
 * and repository path are left out, and the text is cut to a fixed length. Pure.
 */
import { tmpdir } from 'node:os';
import { REPO_ROOT } from '../grading/index.ts';
import type { Learner } from '../assignments/index.ts';

export const NAME_MAX = 80;
/** The schema already caps an address at 254 characters (and refuses controls): only neutralised. */
export const EMAIL_MAX = 254;
export const FILE_MAX = 80;
export const EXCERPT_MAX = 200;

// Controls (C0, C1), format characters (bidirectional controls, zero-width ones), line and paragraph separators.
const UNSAFE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu;
const SPACES = /\s+/g;
const JOINER = /^[\u200C\u200D]$/;
const LETTER = /^[\p{L}\p{M}]$/u;
const spelledWith = (s: string, i: number) => LETTER.test(s[i - 1] ?? '') && LETTER.test(s[i + 1] ?? '');
const literally = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
// A sandbox's folder (grade-confined-XXXXXX, grade-XXXXXX, its work/) and the repository: host paths.
// Made at each call: the temp folder is read from TMPDIR, which may change.
const hostPaths = () => new RegExp(`${literally(tmpdir())}/grade-[\\w-]+(?:/work)?/?|${literally(REPO_ROOT)}/?`, 'g');

/** `text` with no unsafe character, whitespace collapsed, at most `max` characters (a cut ends with …). */
export function neutral(text: string, max: number): string {
  const clean = text
    .replace(SPACES, ' ')
    .replace(UNSAFE, (ch: string, i: number, s: string) => (JOINER.test(ch) && spelledWith(s, i) ? ch : '\uFFFD'))
    .trim();
  const chars = [...clean];
  return chars.length <= max ? clean : `${chars.slice(0, max - 1).join('')}…`;
}

/** An error message or a process's output, as the gradebook quotes it: neutral, host paths out, short. */
export const excerpt = (text: string, max = EXCERPT_MAX) => neutral(text.replace(hostPaths(), ''), max);

export const shownLearner = (learner: Learner): Learner => ({
  name: neutral(learner.name, NAME_MAX),
  email: neutral(learner.email, EMAIL_MAX),
  ...(learner.givenName ? { givenName: neutral(learner.givenName, NAME_MAX) } : {}),
  ...(learner.familyName ? { familyName: neutral(learner.familyName, NAME_MAX) } : {}),
  ...(learner.studentId ? { studentId: neutral(learner.studentId, NAME_MAX) } : {}),
});

export const shownFile = (file: string) => neutral(file, FILE_MAX);
