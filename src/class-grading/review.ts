/**
 * Code that uses what no exercise needs is flagged for a human to read (strict grading protects the
 * verdict; this says where to look). The checks read the learner's code as tokens (tokens.ts: one
 * scan, comments dropped, strings as their values) and each looks at most a few tokens past each
 * token, so the work is linear in the capped text: no pattern can backtrack, whatever the learner
 * wrote (`// self as` and 20,000 spaces kept the regular expressions this replaces busy for hours).
 * Pure.
 */
import { MAX_SCANNED_CHARS, tokenize, type Token } from './tokens.ts';

/** What a check sees: the tokens of every file, and a count of the tokens the checks looked at. */
interface Scan {
  tokens: Token[];
  steps: number;
}

type Check = (scan: Scan) => boolean;

const FILE_END: Token = { kind: 'other', text: '' };

const named = (t: Token | undefined, names: ReadonlySet<string> | string) =>
  t !== undefined && (t.kind === 'word' || t.kind === 'keyword') && (typeof names === 'string' ? t.text === names : names.has(t.text));
const punct = (t: Token | undefined, text: string) => t?.kind === 'punct' && t.text === text;
const isDot = (t: Token | undefined) => punct(t, '.') || punct(t, '?.');

/** True when `match(i)` holds at some token; every call counts one step (plus what `match` looks ahead). */
const some =
  (match: (tokens: Token[], i: number, scan: Scan) => boolean): Check =>
  (scan) => {
    for (let i = 0; i < scan.tokens.length; i++) {
      scan.steps++;
      if (match(scan.tokens, i, scan)) return true;
    }
    return false;
  };

/** A string (a literal or a template's text) whose value `test` accepts. */
const stringThat = (test: (value: string) => boolean): Check => some((tokens, i) => tokens[i]!.kind === 'string' && test(tokens[i]!.text));

// How far back from `from '<module>'` the check looks for `import type` / `export type`.
const TYPE_IMPORT_LOOKBEHIND = 64;

/** `import type … from '<module>'` (or `export type … from`): erased before the code runs, so it loads nothing. */
const typeOnlySource = (tokens: Token[], i: number): boolean => {
  if (!named(tokens[i - 1], 'from')) return false;
  for (let j = i - 2; j >= 0 && j >= i - TYPE_IMPORT_LOOKBEHIND; j--) {
    if (punct(tokens[j], ';')) return false;
    if (named(tokens[j], 'import') || named(tokens[j], 'export')) return named(tokens[j + 1], 'type');
  }
  return false;
};

/** A module name, with or without `node:`, except as the source of a type-only import. */
const moduleNamed = (...names: string[]): Check => {
  const set = new Set(names.flatMap((n) => [n, `node:${n}`]));
  return some((tokens, i) => tokens[i]!.kind === 'string' && set.has(tokens[i]!.text) && !typeOnlySource(tokens, i));
};

/** `object.member` or `object?.member` or `object['member']`, member one of `members`. */
const memberOf = (object: string, members: string[]): Check => {
  const set = new Set(members);
  return some((tokens, i) => {
    if (!named(tokens[i], object)) return false;
    const next = tokens[i + 1];
    if (isDot(next)) return named(tokens[i + 2], set);
    const open = punct(next, '?.') ? i + 2 : i + 1;
    return punct(tokens[open], '[') && tokens[open + 1]?.kind === 'string' && set.has(tokens[open + 1]!.text) && punct(tokens[open + 2], ']');
  });
};

// How far past `globalThis as` the check looks for the `[` (a type such as Record<string, any>).
const TYPE_LOOKAHEAD = 24;
const GLOBAL_OBJECTS = new Set(['globalThis', 'global', 'self']);

/** `globalThis[…]`, `(globalThis as any)[…]`, `globalThis?.[…]`. */
const globalByName: Check = some((tokens, i, scan) => {
  if (!named(tokens[i], GLOBAL_OBJECTS)) return false;
  let j = i + 1;
  if (named(tokens[j], 'as')) {
    // Skip the type, a bounded number of tokens, up to the `)` that closes `(globalThis as T)`.
    const end = Math.min(tokens.length, j + TYPE_LOOKAHEAD);
    for (j++; j < end && !punct(tokens[j], ')') && !punct(tokens[j], '['); j++) scan.steps++;
  }
  if (punct(tokens[j], ')')) j++;
  if (punct(tokens[j], '?.')) j++;
  return punct(tokens[j], '[');
});

const symbolFor: Check = some((tokens, i) => named(tokens[i], 'Symbol') && isDot(tokens[i + 1]) && named(tokens[i + 2], 'for') && punct(tokens[i + 3], '('));

const REPLACEABLE = new Set([
  'random',
  'now',
  'setTimeout',
  'setInterval',
  'setImmediate',
  'Promise',
  'AbortSignal',
  'AbortController',
  'fetch',
  'timeout',
  'any',
]);
/** `x.now = …` (not `this.now = …`, a field of the learner's own class). */
const replacedGlobal: Check = some(
  (tokens, i) => isDot(tokens[i]) && !named(tokens[i - 1], 'this') && named(tokens[i + 1], REPLACEABLE) && punct(tokens[i + 2], '='),
);

/**
 * What strict grading reads on the tests' side (unhandled rejections, clock reads, timers) must not be
 * unhooked in the learner's process: removing listeners, listening for unhandled rejections or
 * uncaught exceptions, redefining a built-in with defineProperty, or replacing a member of `process`.
 * No solution of these exercises needs any of it.
 */
const UNHOOKING_EVENTS = new Set(['unhandledRejection', 'uncaughtException', 'rejectionHandled', 'uncaughtExceptionMonitor']);
const LISTENER_CALLS = new Set(['on', 'once', 'addListener', 'prependListener', 'prependOnceListener', 'off', 'removeListener', 'removeAllListeners']);
const BUILT_INS = new Set(['Date', 'Math', 'performance', 'globalThis', 'global', 'self', 'process', 'Promise', 'AbortSignal', 'console']);
const unhooking: Check = (scan) =>
  some((tokens, i) => named(tokens[i], 'removeAllListeners') || named(tokens[i], 'setUncaughtExceptionCaptureCallback'))(scan) ||
  some((tokens, i) => tokens[i]!.kind === 'string' && UNHOOKING_EVENTS.has(tokens[i]!.text))(scan) ||
  some((tokens, i) => named(tokens[i], 'process') && isDot(tokens[i + 1]) && named(tokens[i + 2], LISTENER_CALLS))(scan) ||
  some((tokens, i) => named(tokens[i], 'process') && isDot(tokens[i + 1]) && tokens[i + 2]?.kind === 'word' && punct(tokens[i + 3], '='))(scan) ||
  // Object.defineProperty(Date, …), Reflect.defineProperty(performance, …), Object.assign(globalThis, …)
  some(
    (tokens, i) =>
      (named(tokens[i], 'defineProperty') || named(tokens[i], 'defineProperties') || named(tokens[i], 'assign') || named(tokens[i], 'setPrototypeOf')) &&
      punct(tokens[i + 1], '(') &&
      named(tokens[i + 2], BUILT_INS),
  )(scan);

const RUNNER_WORDS = /\bvitest\b|__vitest|\bgrader-/;
const theTestRunner: Check = (scan) =>
  some((tokens, i) => (tokens[i]!.kind === 'word' || tokens[i]!.kind === 'string') && RUNNER_WORDS.test(tokens[i]!.text))(scan) ||
  some((tokens, i) => named(tokens[i], 'expect') && isDot(tokens[i + 1]) && named(tokens[i + 2], 'extend'))(scan);

const evalLike: Check = some(
  (tokens, i) =>
    (named(tokens[i], 'eval') && punct(tokens[i + 1], '(')) || (named(tokens[i], 'Function') && (named(tokens[i - 1], 'new') || punct(tokens[i + 1], '('))),
);

const CHECKS: ReadonlyArray<readonly [string, Check]> = [
  ['node:fs', moduleNamed('fs', 'fs/promises')],
  ['child_process', (scan) => some((tokens, i) => named(tokens[i], 'child_process'))(scan) || stringThat((v) => /\bchild_process\b/.test(v))(scan)],
  ['process.exit/kill', memberOf('process', ['exit', 'kill', 'abort', 'reallyExit'])],
  ['vm/worker_threads/inspector', moduleNamed('vm', 'worker_threads', 'inspector', 'module')],
  ['eval', evalLike],
  ['the test runner', theTestRunner],
  ['process.binding', memberOf('process', ['binding', '_linkedBinding', 'dlopen'])],
  // Ways past the names above that the tampering catalogue (solutions/*/tampering/) uses.
  ['a global looked up by name', (scan) => globalByName(scan) || symbolFor(scan)],
  [
    'the process channel',
    (scan) =>
      memberOf('process', ['send', '_send', 'channel', 'ppid', 'connected', 'disconnect'])(scan) ||
      some((tokens, i) => named(tokens[i], '_send') || (tokens[i]!.kind === 'string' && tokens[i]!.text === '_send'))(scan),
  ],
  ['a replaced global (time, randomness, promises, timers, signals)', replacedGlobal],
  ['listeners removed or a built-in redefined (unhandled rejections, process, Date, performance)', unhooking],
  ['sockets', moduleNamed('net', 'dgram', 'tls', 'v8')],
];

export interface ReviewWork {
  /** Characters scanned (at most MAX_SCANNED_CHARS). */
  chars: number;
  tokens: number;
  /** Tokens the checks looked at, lookahead included. */
  steps: number;
}

/** What in the learner's files deserves a human look (labels in a stable order), or []. */
export function codeToReview(files: Record<string, string>, work?: (done: ReviewWork) => void): string[] {
  // Each file on its own: a comment or template left open at the end of one never hides the next.
  const texts = Object.values(files);
  const scan: Scan = { tokens: texts.flatMap((text) => [...tokenize(text), FILE_END]), steps: 0 };
  const chars = texts.reduce((n, text) => n + Math.min(text.length, MAX_SCANNED_CHARS), 0);
  const found = CHECKS.filter(([, check]) => check(scan)).map(([label]) => label);
  work?.({ chars, tokens: scan.tokens.length, steps: scan.steps });
  return found;
}

/**
 * The most steps the checks take per token: each check looks at every token once (three of them make
 * two passes), and the global-by-name check looks at most TYPE_LOOKAHEAD tokens further.
 */
export const REVIEW_STEPS_PER_TOKEN = 2 * CHECKS.length + TYPE_LOOKAHEAD;
