import { describe, expect, test } from 'vitest';
import { tinyExercise } from '../../grading/testing/test-fixtures.ts';
import { buildWorkerSuite } from './_suite-build.ts';

const tests = {
  'helpers.ts':
    "import { add } from '../src/add.ts';\nexport const twice = (n: number) => add(n, n);\nexport const learnerDir = new URL('../src/', import.meta.url).pathname;\n",
  '1-add.test.ts':
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the suite's source text, with its own template literal
    "import { test } from 'vitest';\nimport { add } from '../src/add.ts';\nimport { twice, learnerDir } from './helpers.ts';\ntest(`R1 adds ${add(1, 2)} ${twice(2)} ${learnerDir}`, () => {});\n",
  '2-end.test.ts': "import { test } from 'vitest';\ntest('R2 ends', () => {});\n",
};

describe('buildWorkerSuite', () => {
  test("one browser module: each test file runs only when asked, against the worker's vitest and the learner's module", async () => {
    const js = await buildWorkerSuite(tinyExercise, tests);
    const names: string[] = [];
    const g = globalThis as Record<string, unknown>;
    g.__courseVitest = { test: (name: string) => names.push(name) };
    g.__courseLearner = { 'add.ts': { add: (a: number, b: number) => a + b } };
    try {
      const suite = (await import(`data:text/javascript;base64,${Buffer.from(js).toString('base64')}`)) as {
        files: Record<string, () => Promise<unknown>>;
        needs: unknown;
        exercise: { id: string };
      };
      expect(Object.keys(suite.files)).toEqual(['1-add.test.ts', '2-end.test.ts']);
      expect(names, 'nothing runs at import').toEqual([]);
      await suite.files['1-add.test.ts']!();
      await suite.files['1-add.test.ts']!();
      expect(names, 'a file runs once; the learner folder is where the worker names their code').toEqual(['R1 adds 3 4 /exercise/src/']);
      expect(suite.needs).toEqual({ '1-add.test.ts': { 'add.ts': ['add'] }, '2-end.test.ts': {} });
      expect(suite.exercise.id).toBe(tinyExercise.id);
    } finally {
      delete g.__courseVitest;
      delete g.__courseLearner;
    }
  });

  test('a suite that imports a Node module the worker lacks cannot be graded in a worker: the build says which', async () => {
    const nodeSuite = { ...tests, '3-fs.test.ts': "import { readFileSync } from 'node:fs';\nreadFileSync('x');\n" };
    await expect(buildWorkerSuite(tinyExercise, nodeSuite)).rejects.toThrow(
      /3-fs\.test\.ts imports node:fs: a suite graded in a Web Worker can use only node:timers/,
    );
  });

  test("the worker's Node modules come from its registry, a helper's .worker.ts sibling replaces it, read-only starter files go along", async () => {
    const suiteFiles = {
      '1-http.test.ts':
        // biome-ignore lint/suspicious/noTemplateCurlyInString: the suite's source text, with its own template literal
        "import { test } from 'vitest';\nimport http from 'node:http';\nimport { where } from './spawn.ts';\ntest(`R1 ${typeof http.createServer} ${where}`, () => {});\n",
      'spawn.ts': "import { spawn } from 'node:child_process';\nexport const where = typeof spawn;\n",
      'spawn.worker.ts': "export const where = 'worker';\n",
    };
    const exercise = { ...tinyExercise, files: [...tinyExercise.files, { path: 'shared.ts', editable: false }] };
    const js = await buildWorkerSuite(exercise, suiteFiles, {}, { 'shared.ts': 'export const shared = 1;', 'add.ts': 'starter' });
    const names: string[] = [];
    const g = globalThis as Record<string, unknown>;
    g.__courseVitest = { test: (name: string) => names.push(name) };
    g.__courseNodeModules = { http: { createServer: () => {} } };
    try {
      const suite = (await import(`data:text/javascript;base64,${Buffer.from(js).toString('base64')}`)) as {
        files: Record<string, () => Promise<unknown>>;
        readOnly: unknown;
      };
      await suite.files['1-http.test.ts']!();
      expect(names).toEqual(['R1 function worker']);
      expect(suite.readOnly).toEqual({ 'shared.ts': 'export const shared = 1;' });
    } finally {
      delete g.__courseVitest;
      delete g.__courseNodeModules;
    }
  });
});
