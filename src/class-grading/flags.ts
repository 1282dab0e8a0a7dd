/**
 * What grade-class flags for the instructor to read beside a grade, never in it: a learner's process
 * stopped at its workspace's limits, a file unlike any solution, a copy of the published reference,
 * code shared with a classmate, a table of answers instead of logic. Each becomes one message in the
 * problems column and the report, in both languages. Pure.
 */
import type { RunLimit } from '../grading/index.ts';
import type { Message } from './messages.ts';

export type Flag =
  /** A learner's process filled its private disk (strict grading) and was stopped. */
  | { kind: 'disk-full'; mb: number }
  /** A learner's process made more files than its workspace may hold and was stopped. */
  | { kind: 'too-many-files'; count: number }
  /** A file far larger or longer-lined than any of the course's solutions. */
  | { kind: 'unusual-file'; file: string; kb: number; lines: number; longestLine: number }
  /** Unicode controls that make an editor show code in another order than it runs. */
  | { kind: 'bidi'; file: string }
  /** The published reference solution, once whitespace, comments and names are set aside. */
  | { kind: 'copy-of-reference' }
  /** Most of its code shared with the published reference solution. */
  | { kind: 'near-reference'; percent: number }
  /** Most of its code shared with these classmates' (their e-mail addresses). */
  | { kind: 'similar'; percent: number; others: string[] }
  /** A file whose tokens are mostly literal values. */
  | { kind: 'literal-data'; file: string; percent: number; literals: number };

/** The flag for a limit a learner's process was stopped at, when it is one of its workspace's. */
export function limitFlag(limit: RunLimit): Flag[] {
  if (limit.kind === 'disk') return [{ kind: 'disk-full', mb: limit.mb }];
  if (limit.kind === 'files') return [{ kind: 'too-many-files', count: limit.count }];
  return [];
}

export function flagMessage(id: string, flag: Flag): Message {
  switch (flag.kind) {
    case 'disk-full':
      return { key: 'problem.diskFull', params: { id, mb: flag.mb } };
    case 'too-many-files':
      return { key: 'problem.tooManyFiles', params: { id, count: flag.count } };
    case 'unusual-file':
      return { key: 'problem.unusualFile', params: { id, file: flag.file, kb: flag.kb, lines: flag.lines, longest: flag.longestLine } };
    case 'bidi':
      return { key: 'problem.bidi', params: { id, file: flag.file } };
    case 'copy-of-reference':
      return { key: 'problem.copyOfReference', params: { id } };
    case 'near-reference':
      return { key: 'problem.nearReference', params: { id, percent: flag.percent } };
    case 'similar':
      return { key: 'problem.similar', params: { id, percent: flag.percent, others: flag.others.join(', ') } };
    case 'literal-data':
      return { key: 'problem.literalData', params: { id, file: flag.file, percent: flag.percent, literals: flag.literals } };
  }
}
