// The tampering catalogue (solutions/<exercise>/tampering/*.ts): submissions written to get marks
// without solving the exercise. Graded as a class through grade-class's strict path, each one must
// fail and be flagged in the gradebook's problems column. Those marked `// full-marks-in-one-process`
// are also graded the old way (tests and learner in one process) to show the attack is real: there
// they get every test.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { ConfinedSandbox, confinementStatus, fsExerciseSource, gradeWith, NodeSandbox, REPO_ROOT } from '../grading/index.ts';
import { gradeClass } from './grade-class.ts';
import { loadClassContext } from './node-io.ts';
import { gradebookRows, learnerProblems } from './results.ts';
import { strictClassIO } from './strict-io.ts';
import { makeAssignment, makeSubmission } from './test-fixtures.ts';

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
}

/**
 * Most attacks are a few lines appended to an untouched starter, as a learner would hand them in: their
 * file holds the header and those lines after an `// appended-to-starter` line, and the starter is put
 * back in between here. An attack that changes the starter itself is a whole file.
 */
function withStarter(text: string, starter: string): string {
  const marker = /^\/\/ appended-to-starter\b.*\n/m.exec(text);
  if (!marker) return text;
  const header = text.slice(0, marker.index);
  return `${header}${starter.endsWith('\n') ? starter : `${starter}\n`}${text.slice(marker.index + marker[0].length)}`;
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
    for (const n of names) {
      const code = withStarter(readFileSync(join(source, exercise, 'tampering', n), 'utf8'), starter(file));
      const what = /^\/\/ tampering: (.+)$/m.exec(code)?.[1] ?? '';
      out.push({
        exercise,
        file,
        name: n.replace(/\.ts$/, ''),
        files: Object.fromEntries(editable.map((path) => [path, path === file ? code : starter(path)])),
        what,
        fullMarksInOneProcess: /^\/\/ full-marks-in-one-process$/m.test(code),
        flaggedByStrictGrading: /^\/\/ flagged-by-strict-grading$/m.test(code),
      });
    }
  }
  return out;
}

const attacks = await catalogue();
const status = confinementStatus();
const required = process.env.GRADER_REQUIRE_CONFINEMENT === '1';
const SLOW = 600_000;

test('the catalogue has the attacks the issue lists, each saying what it tries', () => {
  expect(attacks.length).toBeGreaterThanOrEqual(8);
  for (const a of attacks) expect(a.what, `${a.exercise}/${a.name} has a "// tampering:" line`).not.toBe('');
  expect(attacks.filter((a) => a.fullMarksInOneProcess).length, 'attacks that get full marks in one process').toBeGreaterThanOrEqual(2);
});

describe.skipIf(!status.available && !required)(`strict grade-class${status.available ? '' : ` (skipped: ${status.reason})`}`, () => {
  const dir = mkdtempSync(join(tmpdir(), 'tampering-class-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  // Under GRADER_REQUIRE_CONFINEMENT=1 (CI) a machine without bubblewrap fails here, never skips.
  test('the machine can confine runs', () => {
    expect(status.available, status.reason).toBe(true);
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
      expect(outcome.report.status, `${label}: ${outcome.report.counts.passed}/${outcome.report.counts.total}`).not.toBe('pass');
      const flags = learnerProblems(r).filter((m) => m.key === 'problem.tampering' || m.key === 'problem.review');
      expect(flags.length, `${label} is flagged`).toBeGreaterThan(0);
      if (attack.flaggedByStrictGrading) expect(outcome.tampering ?? [], `${label}: strict grading noticed it`).not.toEqual([]);
      const row = rows.find((x) => x[1] === r.learner.email)!;
      expect(row[problemsColumn], `${label}: the gradebook's problems column`).toMatch(/tampering suspected|read this code/);
    }
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
