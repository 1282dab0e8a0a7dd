import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { REPO_ROOT } from '../grading/index.ts';
import { codeToReview } from './review.ts';

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
