import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { REPO_ROOT } from '../grading/index.ts';
import { codeToReview, REVIEW_STEPS_PER_TOKEN, type ReviewWork } from './review.ts';
import { MAX_SCANNED_CHARS } from './tokens.ts';

describe('codeToReview', () => {
  test('flags code that could tamper with its own grading', () => {
    expect(codeToReview({ 'retry.ts': "import { writeFileSync } from 'node:fs';\nwriteFileSync('grader-events.jsonl', '');" })).toEqual([
      'node:fs',
      'the test runner',
    ]);
    expect(codeToReview({ 'a.ts': "const { execSync } = require('child_process');" })).toEqual(['child_process']);
    expect(codeToReview({ 'a.ts': 'process.exit(0);' })).toEqual(['process.exit/kill']);
    expect(codeToReview({ 'a.ts': "await import('fs');" })).toEqual(['node:fs']);
    expect(codeToReview({ 'a.ts': "new Function('return this')();" })).toEqual(['eval']);
    expect(codeToReview({ 'a.ts': "import vm from 'node:vm';" })).toEqual(['vm/worker_threads/inspector']);
  });

  test('a type-only import loads nothing and is left alone; a value import of the same module is flagged', () => {
    expect(codeToReview({ 'a.ts': "import type { Socket } from 'node:net';\nexport type { Stats } from 'node:fs';" })).toEqual([]);
    expect(codeToReview({ 'a.ts': "import type { Socket } from 'node:net';\nimport { connect } from 'node:net';" })).toEqual(['sockets']);
    expect(codeToReview({ 'a.ts': "import { type Socket, connect } from 'node:net';" })).toEqual(['sockets']);
    expect(codeToReview({ 'a.ts': "import type { A } from './a';\nconst m = 'node:net';" })).toEqual(['sockets']);
    expect(codeToReview({ 'a.ts': "import type { A } from './a'; await import('node:fs');" })).toEqual(['node:fs']);
  });

  test('flags what unhooks the tests’ view of the learner’s process: listeners removed, rejections swallowed, built-ins redefined', () => {
    const unhook = ['listeners removed or a built-in redefined (unhandled rejections, process, Date, performance)'];
    for (const code of [
      "process.removeAllListeners('unhandledRejection');",
      "process.on('unhandledRejection', () => {});",
      "process.once('uncaughtException', () => {});",
      'process.off(event, fn);',
      'process.emit = () => false;',
      "Object.defineProperty(Date, 'now', { value: () => 0 });",
      'Reflect.defineProperty(performance, "now", { value: () => 0 });',
      'Object.assign(globalThis, { setTimeout: () => 0 });',
      'process.setUncaughtExceptionCaptureCallback(() => {});',
    ]) {
      expect(codeToReview({ 'a.ts': code }), code).toEqual(unhook);
    }
    // What honest code writes is left alone: its own emitters, its own fields, its own objects.
    for (const code of ["emitter.on('data', f);", 'this.now = now;', 'Object.defineProperty(this, "x", { value: 1 });', "res.once('close', f);"]) {
      expect(codeToReview({ 'a.ts': code }), code).toEqual([]);
    }
  });

  test('leaves every reference and alternative solution and every starter alone', () => {
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const full = join(dir, name);
        if (statSync(full).isDirectory()) {
          if (name !== 'buggy' && name !== 'tampering') walk(full);
        } else if (name.endsWith('.ts')) files.push(full);
      }
    };
    walk(join(REPO_ROOT, 'solutions'));
    for (const id of readdirSync(join(REPO_ROOT, 'exercises'))) {
      if (!id.startsWith('_') && statSync(join(REPO_ROOT, 'exercises', id)).isDirectory()) walk(join(REPO_ROOT, 'exercises', id, 'starter'));
    }
    expect(files.length).toBeGreaterThan(20);
    const flagged = files.filter((f) => codeToReview({ f: readFileSync(f, 'utf8') }).length > 0);
    expect(flagged).toEqual([]);
  });
});

describe('the review does bounded work, whatever the learner wrote', () => {
  const MB = 1_000_000;
  const fill = (unit: string, size = MB) => unit.repeat(Math.ceil(size / unit.length)).slice(0, size);
  // Each shape the regular expressions this replaced backtracked on, and each the tokenizer must
  // take in its stride: unclosed strings, templates, comments and regular expressions, deep nesting.
  const hostile: Record<string, string> = {
    'the issue: `// self as` and spaces': `// self as${' '.repeat(MB)}`,
    'self as, spaces, no comment': `self as${' '.repeat(MB)}`,
    '(globalThis as with a long type': `(globalThis as ${fill('Record<a, ')}`,
    'globalThis as, again and again': fill('(globalThis as '),
    'process . . .': `process${fill(' .')}`,
    'x.now repeated': fill('x.now '),
    'a million quotes': fill("'"),
    'template heads': fill('`${'),
    slashes: fill('/'),
    'regex after regex': fill('(/a/'),
    'open parentheses': fill('('),
    'open braces': fill('{'),
    'closing brackets': fill(')}]'),
    'comment openers': fill('/*'),
    'Symbol.for(': fill('Symbol.for('),
    'a long string': `'${fill('vitest grader-', MB - 2)}'`,
    'new Function(': fill('new Function('),
  };
  for (const [name, text] of Object.entries(hostile)) {
    test(`${name} (1 MB)`, () => {
      let work: ReviewWork | undefined;
      const started = performance.now();
      const found = codeToReview({ 'a.ts': text }, (w) => (work = w));
      const ms = performance.now() - started;
      expect(Array.isArray(found)).toBe(true);
      expect(work!.chars).toBe(Math.min(text.length, MAX_SCANNED_CHARS));
      expect(work!.tokens).toBeLessThanOrEqual(work!.chars + 1);
      expect(work!.steps).toBeLessThanOrEqual(REVIEW_STEPS_PER_TOKEN * (work!.tokens + 1));
      console.log(`review of "${name}": ${work!.tokens} tokens, ${work!.steps} steps, ${ms.toFixed(0)} ms`);
    });
  }

  test('no more than MAX_SCANNED_CHARS of a file is read', () => {
    let work: ReviewWork | undefined;
    codeToReview({ 'a.ts': ' '.repeat(3 * MAX_SCANNED_CHARS) }, (w) => (work = w));
    expect(work!.chars).toBe(MAX_SCANNED_CHARS);
  });

  test('a comment or template left open in one file hides nothing in the next', () => {
    expect(codeToReview({ 'a.ts': 'const x = 1; /*', 'b.ts': 'process.exit(0);' })).toEqual(['process.exit/kill']);
    expect(codeToReview({ 'a.ts': 'const x = `', 'b.ts': 'eval("1")' })).toEqual(['eval']);
  });

  test('a `/` is read as JavaScript reads it, so a quote inside a regular expression hides nothing', () => {
    expect(codeToReview({ 'a.ts': "if (a) /'/.test(x); eval(y); // '" })).toEqual(['eval']);
    expect(codeToReview({ 'a.ts': "function f() {} /'/; eval(1); // '" })).toEqual(['eval']);
    expect(codeToReview({ 'a.ts': "let as = 2; as / 1; eval('x') / 3" })).toEqual(['eval']);
    expect(codeToReview({ 'a.ts': "const s = 'eval(1)'; // process.exit(0)" })).toEqual([]);
  });
});
