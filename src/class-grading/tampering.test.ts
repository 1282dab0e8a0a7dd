// The tampering catalogue (solutions/<exercise>/tampering/*.ts): submissions written to get marks
// without solving the exercise, or to stall or harm the grader. Graded as a class through grade-class's
// strict path, each one must fail and be flagged in the gradebook's problems column (a copy or a table
// of answers, which no test can tell from a solution, may pass: `// full-marks-flagged: <key>` names the
// flag it must carry), quoted short and neutral, and leave no sandbox on disk. Those marked `// full-marks-in-one-process`
// are also graded the old way (tests and learner in one process) to show the attack is real: there
// they get every test.
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { ConfinedSandbox, confinementStatus, fsExerciseSource, gradeWith, NodeSandbox, REPO_ROOT } from '../grading/index.ts';
import { buggyVariant } from '../grading/node/testing/proof-catalogue.ts';
import { removeTreeSync } from '../grading/node/remove-tree.ts';
import { gradeClass } from './grade-class.ts';
import { loadClassContext } from './node-io.ts';
import { gradebookRows, learnerProblems } from './results.ts';
import { strictClassIO } from './strict-io.ts';
import { fakeReport, makeAssignment, makeSubmission } from './testing/test-fixtures.ts';

interface Attack {
  exercise: string;
  file: string;
  name: string;
  /** Every editable file of the exercise: the attack's, and the untouched starter's for the others. */
  files: Record<string, string>;
  what: string;
  fullMarksInOneProcess: boolean;
  /** What strict grading itself notices (an exit, a protocol violation), beyond the code review. */
  flaggedByStrictGrading: boolean;
  /** It stops the run before the suite is through (`// cuts-the-run-short`). */
  cutsTheRunShort: boolean;
  /** The problem it must be flagged with (`// flagged-as: <message key>`), a limit or a flag of grade-class. */
  flaggedAs?: string;
  /**
   * It may well get full marks (a copy, a table of answers: no test can tell) and must carry this flag
   * instead (`// full-marks-flagged: <message key>`): for the instructor to read, never a grade.
   */
  fullMarksFlagged?: string;
}

/**
 * Most attacks are a few lines appended to an untouched starter, as a learner would hand them in: their
 * file holds the header and those lines after an `// appended-to-starter` line, and the starter is put
 * back in between here. Some hide a real bug: `// appended-to: buggy/<name>` puts that buggy variant of
 * the proof's catalogue there instead (the reference with one mistake). An attack that changes the
 * starter itself is a whole file.
 */
function withStarter(text: string, starter: string, variant: (name: string) => string): string {
  const marker = /^\/\/ appended-to(?:-starter\b|: (buggy\/[\w-]+)).*\n/m.exec(text);
  if (!marker) return text;
  const base = marker[1] ? variant(marker[1]) : starter;
  const header = text.slice(0, marker.index);
  return `${header}${base.endsWith('\n') ? base : `${base}\n`}${text.slice(marker.index + marker[0].length)}`;
}

async function catalogue(): Promise<Attack[]> {
  const exercises = fsExerciseSource();
  const out: Attack[] = [];
  const source = join(REPO_ROOT, 'solutions');
  for (const exercise of readdirSync(source).sort()) {
    let names: string[] = [];
    try {
      names = readdirSync(join(source, exercise, 'tampering'))
        .filter((n) => n.endsWith('.ts'))
        .sort();
    } catch {
      continue;
    }
    const bundle = await exercises.load(exercise);
    if (!bundle) throw new Error(`solutions/${exercise}/tampering has no exercise`);
    // The attack is in the exercise's first editable file (service-chain: a.ts).
    const editable = bundle.exercise.files.filter((f) => f.editable).map((f) => f.path);
    const starter = (path: string) => bundle.starter[path] ?? '';
    const file = editable[0]!;
    const reference = { [file]: readFileSync(join(source, exercise, file), 'utf8') };
    const variant = (name: string) => buggyVariant(exercise, name.slice('buggy/'.length), reference).files[file]!;
    for (const n of names) {
      const code = withStarter(readFileSync(join(source, exercise, 'tampering', n), 'utf8'), starter(file), variant);
      const what = /^\/\/ tampering: (.+)$/m.exec(code)?.[1] ?? '';
      out.push({
        exercise,
        file,
        name: n.replace(/\.ts$/, ''),
        files: Object.fromEntries(editable.map((path) => [path, path === file ? code : starter(path)])),
        what,
        fullMarksInOneProcess: /^\/\/ full-marks-in-one-process$/m.test(code),
        flaggedByStrictGrading: /^\/\/ flagged-by-strict-grading$/m.test(code),
        cutsTheRunShort: /^\/\/ cuts-the-run-short$/m.test(code),
        ...flagMarkers(code),
      });
    }
  }
  return out;
}

function flagMarkers(code: string): Pick<Attack, 'flaggedAs' | 'fullMarksFlagged'> {
  const flaggedAs = /^\/\/ flagged-as: ([\w.]+)$/m.exec(code)?.[1];
  const fullMarksFlagged = /^\/\/ full-marks-flagged: ([\w.]+)$/m.exec(code)?.[1];
  return { ...(flaggedAs ? { flaggedAs } : {}), ...(fullMarksFlagged ? { fullMarksFlagged } : {}) };
}

const attacks = await catalogue();
const status = confinementStatus();
const required = process.env.GRADER_REQUIRE_CONFINEMENT === '1';
const SLOW = 600_000;
/** What counts as flagging an attack in the problems column. */
const FLAGS = new Set<string>([
  'problem.tampering',
  'problem.review',
  'problem.runError',
  'problem.diskFull',
  'problem.tooManyFiles',
  'problem.unusualFile',
  'problem.bidi',
  'problem.copyOfReference',
  'problem.nearReference',
  'problem.similar',
  'problem.literalData',
]);

test('the catalogue has the attacks the issue lists, each saying what it tries', () => {
  expect(attacks.length).toBeGreaterThanOrEqual(8);
  for (const a of attacks) expect(a.what, `${a.exercise}/${a.name} has a "// tampering:" line`).not.toBe('');
  expect(attacks.filter((a) => a.fullMarksInOneProcess).length, 'attacks that get full marks in one process').toBeGreaterThanOrEqual(2);
});

test('a learner that repeats a violation fills no gradebook cell: three suspicions are quoted, then how many more', () => {
  const tampering = Array.from({ length: 826 }, (_, i) => `protocol-violation: grading protocol: violation ${i}`);
  const result = {
    file: 'a.json',
    learner: { name: 'A', email: 'a@example.test' },
    exportedAt: '2026-01-01T00:00:00Z',
    late: false,
    quizzes: [],
    durationMs: 1,
    exercises: [{ id: 'retry-helper', status: 'graded' as const, report: fakeReport(['R1'], ['R1']), tampering }],
  };
  const what = learnerProblems(result).find((m) => m.key === 'problem.tampering')!.params['what'];
  expect(what).toBe(`${tampering.slice(0, 3).join('; ')}; … (+823)`);
});

describe.skipIf(!status.available && !required)(`strict grade-class${status.available ? '' : ` (skipped: ${status.reason?.en})`}`, () => {
  const dir = mkdtempSync(join(tmpdir(), 'tampering-class-'));
  // The class's sandboxes in a temp folder of their own, to see that none is left (the sandbox's user reaches it).
  const temp = mkdtempSync(join(tmpdir(), 'tampering-temp-'));
  chmodSync(temp, 0o755);
  const hostTemp = tmpdir();
  process.env['TMPDIR'] = temp;
  afterAll(() => {
    process.env['TMPDIR'] = hostTemp;
    rmSync(dir, { recursive: true, force: true });
    removeTreeSync(temp);
  });

  // Under GRADER_REQUIRE_CONFINEMENT=1 (CI) a machine without bubblewrap fails here, never skips.
  test('the machine can confine runs', () => {
    expect(status.available, status.reason?.en).toBe(true);
  });

  test('every attack is graded as failing and flagged in the gradebook', { timeout: SLOW }, async () => {
    const exercises = [...new Set(attacks.map((a) => a.exercise))];
    const assignment = makeAssignment({ exercises, quizzes: [] });
    const loaded = await loadClassContext(assignment);
    if (!loaded.ok) throw new Error(JSON.stringify(loaded.problem));
    attacks.forEach((a, i) => {
      const learner = { name: `Attacker ${i}`, email: `${a.exercise}.${a.name}@example.test` };
      writeFileSync(join(dir, `${String(i).padStart(2, '0')}.json`), JSON.stringify(makeSubmission(assignment, learner, { [a.exercise]: a.files })));
    });
    const io = strictClassIO(dir, () => ConfinedSandbox.create(), fsExerciseSource());
    const grading = await gradeClass(loaded.value, io, { jobs: 2, lang: 'en' }).finally(() => io.dispose());
    expect(grading.rejected).toEqual([]);
    const rows = gradebookRows(loaded.value, grading.results, [], 'en');
    const problemsColumn = rows[0]!.length - 1;
    for (const r of grading.results) {
      const attack = attacks.find((a) => r.learner.email === `${a.exercise}.${a.name}@example.test`)!;
      const outcome = r.exercises.find((e) => e.id === attack.exercise)!;
      const label = `${attack.exercise}/${attack.name} (${attack.what})`;
      expect(outcome.status, label).toBe('graded');
      if (outcome.status !== 'graded') continue;
      if (!attack.fullMarksFlagged) expect(outcome.report.status, `${label}: ${outcome.report.counts.passed}/${outcome.report.counts.total}`).not.toBe('pass');
      // A run the attack cut short says so too (how many tests were never reached): that is a flag for reading.
      const problems = learnerProblems(r);
      const flags = problems.filter((m) => FLAGS.has(m.key));
      expect(flags.length, `${label} is flagged`).toBeGreaterThan(0);
      const expected = attack.flaggedAs ?? attack.fullMarksFlagged;
      if (expected)
        expect(
          problems.map((m) => m.key),
          `${label} is flagged as ${expected}`,
        ).toContain(expected);
      if (attack.flaggedByStrictGrading) expect(outcome.tampering ?? [], `${label}: strict grading noticed it`).not.toEqual([]);
      const row = rows.find((x) => x[1] === r.learner.email)!;
      expect(row[problemsColumn], `${label}: the gradebook's problems column: ${row[problemsColumn]}`).toMatch(
        /tampering suspected|read this code|never reached|read it|for you to read|was stopped there|could not be loaded|could not load/,
      );
      // Whatever the learner chose is quoted short and neutral: no control or bidirectional character,
      // no host path, no 6 KB of their folder names.
      expect(row.join(' '), `${label}: the row quotes nothing raw`).not.toMatch(/[\p{Cc}\p{Cf}]/u);
      expect(row[problemsColumn], `${label}: no host path`).not.toContain(`${temp}/grade-`);
      expect(row[problemsColumn], `${label}: no host path`).not.toContain(REPO_ROOT);
      expect(row[problemsColumn], `${label}: a short excerpt`).not.toMatch(/(?:d\/){120}|d{200}/);
      if (attack.cutsTheRunShort) {
        expect(row[problemsColumn], `${label}: a run cut short says how much it never reached`).toMatch(/never reached/);
        expect(outcome.report.counts.total, `${label}: scored against the whole suite`).toBe(
          (await fsExerciseSource().load(attack.exercise))!.testList!.length,
        );
      }
    }
    // However deep its tree and however many links it made, no learner's sandbox is left on disk.
    expect(readdirSync(temp).filter((n) => n.startsWith('grade-'))).toEqual([]);
  });
});

describe('in one process (tests and learner together), the attacks marked so get full marks', () => {
  const source = fsExerciseSource();
  for (const a of attacks.filter((x) => x.fullMarksInOneProcess)) {
    test(`${a.exercise}/${a.name}`, { timeout: SLOW }, async () => {
      const sandbox = await NodeSandbox.create();
      try {
        const report = await gradeWith({ exerciseId: a.exercise, files: a.files, lang: 'en' }, sandbox, { source, typecheck: false });
        expect(report.status, report.message).toBe('pass');
        expect(report.counts.failed).toBe(0);
        expect(report.counts.passed).toBeGreaterThan(10);
      } finally {
        await sandbox.dispose();
      }
    });
  }
});
