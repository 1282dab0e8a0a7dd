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
  // Ways past the names above that the tampering catalogue (solutions/*/tampering/) uses.
  ['a global looked up by name', /\b(?:globalThis|global|self)\b\s*(?:as\s+[\w<>, ]+)?\s*\)?\s*\[|\bSymbol\s*\.\s*for\s*\(/],
  ['the process channel', /\bprocess\s*\.\s*(?:send|_send|channel|ppid|connected|disconnect)\b|\b_send\b/],
  [
    'a replaced global (time, randomness, promises, timers, signals)',
    /(?<!\bthis\s*)\.\s*(?:random|now|setTimeout|setInterval|setImmediate|Promise|AbortSignal|AbortController|fetch|timeout|any)\s*=(?![=>])/,
  ],
  ['sockets', /['"](?:node:)?(?:net|dgram|tls|v8)['"]/],
];

/** What in the learner's files deserves a human look (labels in a stable order), or []. */
export function codeToReview(files: Record<string, string>): string[] {
  const text = Object.values(files).join('\n');
  return SUSPICIOUS.filter(([, pattern]) => pattern.test(text)).map(([label]) => label);
}
