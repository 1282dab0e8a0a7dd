// Every exercise folder is well-formed: a malformed exercise fails here, not in front of a learner.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { exerciseSchema, parseExercise } from './exercise-schema.ts';
import { EXERCISES_DIR, fsExerciseSource, REPO_ROOT } from '../node/fs-source.ts';
import { ruleCoverageProblems, testNamesIn } from './rules.ts';
import { tinyExercise } from '../testing/test-fixtures.ts';

const source = fsExerciseSource();
const ids = await source.ids();

describe('exercise schema', () => {
  test('accepts the fixture and rejects malformed exercises', () => {
    expect(parseExercise(tinyExercise)).toEqual(tinyExercise);
    const bad = (patch: object) => exerciseSchema.safeParse({ ...tinyExercise, ...patch }).success;
    expect(bad({ title: { vi: 'Bai tap nho', en: 'x' } }), 'vi text without diacritics').toBe(false);
    expect(bad({ files: [{ path: '../x.ts', editable: true }] }), 'escaping path').toBe(false);
    expect(bad({ files: [{ path: 'x.ts', editable: false }] }), 'nothing editable').toBe(false);
    expect(bad({ rules: { r1: tinyExercise.rules['R1'] } }), 'bad rule id').toBe(false);
    expect(bad({ limits: { testTimeoutMs: 5000, runTimeoutMs: 2000 } }), 'run limit below test limit').toBe(false);
    expect(bad({ extra: 1 }), 'unknown key').toBe(false);
    const { estimateMinutes: _, ...noEstimate } = tinyExercise;
    expect(exerciseSchema.safeParse(noEstimate).success, 'no estimate of the time it takes').toBe(false);
    expect(bad({ estimateMinutes: 2.5 }), 'a fractional estimate').toBe(false);
    expect(bad({ estimateMinutes: 600 }), 'an estimate of ten hours').toBe(false);
  });

  test('there is at least one exercise', () => {
    expect(ids.length).toBeGreaterThan(0);
  });
});

for (const id of ids) {
  describe(`exercise ${id}`, () => {
    const dir = join(EXERCISES_DIR, id);
    const raw = JSON.parse(readFileSync(join(dir, 'exercise.json'), 'utf8')) as { id?: string };

    test('exercise.json matches the schema and its folder name', () => {
      const parsed = exerciseSchema.safeParse(raw);
      expect(parsed.success, parsed.success ? '' : JSON.stringify(parsed.error.issues, null, 1)).toBe(true);
      expect(raw.id).toBe(id);
    });

    test('every rule tested has an entry and every entry is tested', async () => {
      const bundle = (await source.load(id))!;
      const names = Object.entries(bundle.tests)
        .filter(([path]) => path.endsWith('.ts')) // test files, and modules that declare tests for one (service-chain's)
        .flatMap(([, text]) => testNamesIn(text));
      expect(names.length).toBeGreaterThan(0);
      expect(ruleCoverageProblems(Object.keys(bundle.exercise.rules), names)).toEqual([]);
    });

    test('starter, reference and briefs exist for every declared file', async () => {
      const bundle = (await source.load(id))!;
      for (const f of bundle.exercise.files) {
        expect(bundle.starter[f.path], `starter/${f.path}`).toBeDefined();
        if (f.editable) expect(existsSync(join(REPO_ROOT, 'solutions', id, f.path)), `solutions/${id}/${f.path}`).toBe(true);
      }
      for (const lang of ['vi', 'en']) {
        const brief = join(dir, `brief.${lang}.md`);
        expect(existsSync(brief), brief).toBe(true);
        const text = readFileSync(brief, 'utf8');
        for (const rule of Object.keys(bundle.exercise.rules)) expect(text, `${rule} in brief.${lang}.md`).toContain(`**${rule}**`);
      }
    });
  });
}
