/**
 * The sandbox protects the instructor's machine, not the grade: the hidden suite runs in the same
 * process as the learner's code, so a determined submission could rewrite its own results. No
 * exercise needs the APIs below, so code that uses them is flagged for a human to read. Pure.
 */
const SUSPICIOUS: ReadonlyArray<readonly [string, RegExp]> = [
  ['node:fs', /\bfrom\s*['"](?:node:)?fs(?:\/promises)?['"]|\brequire\s*\(\s*['"](?:node:)?fs\b|\bimport\s*\(\s*['"](?:node:)?fs\b/],
  ['child_process', /\bchild_process\b/],
  ['process.exit/kill', /\bprocess\s*\.\s*(?:exit|kill|abort|reallyExit)\b/],
  ['vm/worker_threads/inspector', /['"](?:node:)?(?:vm|worker_threads|inspector|module)['"]/],
  ['eval', /\beval\s*\(|\bnew\s+Function\s*\(/],
  ['the test runner', /\bvitest\b|__vitest|\bgrader-|\bexpect\s*\.\s*extend\b/],
  ['process.binding', /\bprocess\s*\.\s*(?:binding|_linkedBinding|dlopen)\b/],
];

/** What in the learner's files deserves a human look (labels in a stable order), or []. */
export function codeToReview(files: Record<string, string>): string[] {
  const text = Object.values(files).join('\n');
  return SUSPICIOUS.filter(([, pattern]) => pattern.test(text)).map(([label]) => label);
}
