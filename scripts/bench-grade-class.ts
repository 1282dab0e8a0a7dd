// npm run bench:grade-class [-- --count N] [--jobs N] [--unsafe-no-sandbox] [--verdicts FILE] [--no-record]
// Grades a generated class with grade-class's default number of graders (defaultJobs: the cores when
// strict, cores - 1 otherwise) and prints the total wall
// time and the time per submission (median, p90). Each learner hands in both core exercises
// (retry-helper, deadline-middleware): the reference, an alternative, a buggy variant or the starter,
// in rotation; a few bad files are mixed in. It grades in the default sandbox (confined); the code is
// the repository's own, so without confinement, or with --unsafe-no-sandbox, it uses plain child processes (and says so).
// --verdicts FILE writes each graded exercise run (its variant, status and failing rules), one JSON line
// each, to compare runs: a verdict that differs between two runs depends on timing.
// A confined run writes its table into docs/benchmarks.md (section bench:grade-class) unless --no-record.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { killSandboxesOnSignals, REPO_ROOT } from '../src/grading/index.ts';
import { buggyVariant } from '../src/grading/node/testing/proof-catalogue.ts';
import {
  createSubmissionSandbox,
  defaultJobs,
  gradeClass,
  gradingFailed,
  loadClassContext,
  nodeClassIO,
  strictClassIO,
  type ClassGradingIO,
} from '../src/class-grading/index.ts';
import { makeAssignment, makeSubmission } from '../src/class-grading/testing/test-fixtures.ts';
import { RECORD_OPTION, recordBench } from './bench-record.ts';
import { readCli, wholeNumber } from './run-cli.ts';
import { userPath } from './user-path.ts';

killSandboxesOnSignals();

const cli = readCli({
  usage: {
    en: 'Usage: npm run bench:grade-class -- [--count N] [--jobs N] [--unsafe-no-sandbox] [--verdicts FILE] [--no-record]   (default 100 submissions, as many graders as grade-class uses by default; a confined run of 100 writes docs/benchmarks.md)',
    vi: 'Cách dùng: npm run bench:grade-class -- [--count N] [--jobs N] [--unsafe-no-sandbox] [--verdicts FILE] [--no-record]   (mặc định 100 bài nộp, số bộ chấm mặc định của grade-class; lần chạy có cô lập với 100 bài nộp thì ghi vào docs/benchmarks.md)',
  },
  options: { count: { type: 'string' }, jobs: { type: 'string' }, 'unsafe-no-sandbox': { type: 'boolean' }, verdicts: { type: 'string' }, ...RECORD_OPTION },
  maxPositionals: 0,
});
const count = wholeNumber(cli, 'count', 100);

const CORE = { 'retry-helper': 'retry.ts', 'deadline-middleware': 'deadline.ts' } as const;
type Core = keyof typeof CORE;

/** Every version of an exercise's file we have, labelled: reference, alternatives, buggy variants, starter. */
function variants(id: Core): Array<{ label: string; text: string }> {
  const dir = join(REPO_ROOT, 'solutions', id);
  const list = (sub: string) =>
    readdirSync(join(dir, sub))
      .filter((f) => f.endsWith('.ts'))
      .sort()
      .map((f) => ({ label: `${sub}/${f}`, text: readFileSync(join(dir, sub, f), 'utf8') }));
  const reference = { label: 'reference', text: readFileSync(join(dir, CORE[id]), 'utf8') };
  const starter = { label: 'starter', text: readFileSync(join(REPO_ROOT, 'exercises', id, 'starter', CORE[id]), 'utf8') };
  const alternatives = list('alternatives');
  const buggy = readdirSync(join(dir, 'buggy'))
    .filter((f) => f.endsWith('.patch'))
    .sort()
    .map((f) => {
      const name = f.slice(0, -'.patch'.length);
      return { label: `buggy/${name}`, text: buggyVariant(id, name, { [CORE[id]]: reference.text }).files[CORE[id]]! };
    });
  // Roughly a class: a third correct (reference or alternative), half buggy, the rest the untouched starter.
  const out: Array<{ label: string; text: string }> = [];
  for (let i = 0; out.length < 12; i++) {
    out.push(i % 3 === 0 ? reference : alternatives[i % alternatives.length]!);
    out.push(buggy[(i * 7) % buggy.length]!, buggy[(i * 7 + 3) % buggy.length]!);
    if (i % 2 === 1) out.push(starter);
  }
  return out;
}

const assignment = makeAssignment({ id: 'asg-bench', exercises: Object.keys(CORE), quizzes: [], modules: [] });
const dir = mkdtempSync(join(tmpdir(), 'bench-grade-class-'));
try {
  const pool = { 'retry-helper': variants('retry-helper'), 'deadline-middleware': variants('deadline-middleware') };
  const BAD = 4;
  const good = count - BAD;
  const handedIn = new Map<string, Record<Core, string>>(); // e-mail -> the variant of each exercise
  for (let i = 0; i < good; i++) {
    const pick = (id: Core) => pool[id][(i + (id === 'deadline-middleware' ? 5 : 0)) % pool[id].length]!;
    const files = Object.fromEntries((Object.keys(CORE) as Core[]).map((id) => [id, { [CORE[id]]: pick(id).text }]));
    handedIn.set(`learner${i + 1}@example.com`, { 'retry-helper': pick('retry-helper').label, 'deadline-middleware': pick('deadline-middleware').label });
    const learner = { name: `Học viên ${i + 1}`, email: `learner${i + 1}@example.com` };
    writeFileSync(join(dir, `s${String(i + 1).padStart(3, '0')}.json`), JSON.stringify(makeSubmission(assignment, learner, files)));
  }
  const sample = makeSubmission(assignment, { name: 'X', email: 'x@example.com' }, {});
  writeFileSync(join(dir, 'bad-not-json.json'), '{"format": "course-submission"');
  writeFileSync(join(dir, 'bad-other-assignment.json'), JSON.stringify({ ...sample, assignmentId: 'asg-other' }));
  writeFileSync(join(dir, 'bad-path.json'), JSON.stringify({ ...sample, exercises: { 'retry-helper': { files: { '../retry.ts': '' } } } }));
  writeFileSync(
    join(dir, 'bad-duplicate.json'),
    JSON.stringify({ ...sample, learner: { name: 'Học viên 1', email: 'learner1@example.com' }, exportedAt: '2026-11-01T00:00:00.000Z' }),
  );

  const context = await loadClassContext(assignment);
  if (!context.ok) throw new Error(context.problem.key);
  // The default (confined); plain processes when asked (--unsafe-no-sandbox) or when there is no confinement.
  const preferred = createSubmissionSandbox({ unsafeNoSandbox: cli.values['unsafe-no-sandbox'] === true });
  const choice = preferred.ok ? preferred : createSubmissionSandbox({ unsafeNoSandbox: true });
  if (!choice.ok) throw new Error('no sandbox');
  const jobs = cli.values.jobs === undefined ? defaultJobs(choice.confined) : wholeNumber(cli, 'jobs', 1);
  console.log(
    `bench:grade-class — ${count} submission files (${BAD} bad), ${Object.keys(CORE).length} exercises each, ${jobs} grader(s), ` +
      `${choice.confined ? `strict grading in confined sandboxes (${choice.mechanism})` : 'plain child processes (NodeSandbox), tests and code in one process'}, ` +
      `node ${process.version}, ${new Date().toISOString()}`,
  );
  let done = 0;
  const t0 = performance.now();
  // As grade-class does: strict grading when confined (warm tests' sandboxes, a fresh learner's process each).
  const io: ClassGradingIO & { dispose?: () => Promise<void> } = choice.confined ? strictClassIO(dir, choice.factory) : nodeClassIO(dir, choice.factory);
  const grading = await gradeClass(context.value, io, {
    jobs,
    lang: 'en',
    duplicates: 'latest-wins', // keeps bad-duplicate.json a rejection, as in earlier runs of this bench
    onProgress: () => {
      if (++done % 10 === 0) process.stderr.write(`  ${done}/${count} after ${((performance.now() - t0) / 1000).toFixed(0)} s\n`);
    },
  });
  await io.dispose?.();
  const wall = performance.now() - t0;
  const times = grading.results.map((r) => r.durationMs).sort((a, b) => a - b);
  const pct = (p: number) => times[Math.min(times.length - 1, Math.floor((p / 100) * times.length))]! / 1000;
  const passed = grading.results.flatMap((r) => r.exercises).filter((e) => e.status === 'graded' && e.report.status === 'pass').length;
  console.log(`graded ${grading.results.length}, rejected ${grading.rejected.length}, could not be graded ${grading.results.filter(gradingFailed).length}`);
  console.log(`exercise runs passing every rule: ${passed} of ${grading.results.length * Object.keys(CORE).length}`);
  console.log(`total wall time ${(wall / 1000).toFixed(1)} s (${(wall / 1000 / Math.max(1, grading.results.length)).toFixed(2)} s per graded submission)`);
  if (cli.values.verdicts) {
    const lines = grading.results.flatMap((r) =>
      r.exercises.map((e) =>
        JSON.stringify({
          learner: r.learner.email,
          exercise: e.id,
          variant: handedIn.get(r.learner.email)?.[e.id as Core],
          status: e.status === 'graded' ? e.report.status : e.status,
          failing: e.status === 'graded' ? [...new Set(e.report.tests.filter((t) => t.status !== 'pass').map((t) => t.rule))] : [],
          ms: e.status === 'graded' ? Math.round(e.report.durationMs) : undefined,
        }),
      ),
    );
    writeFileSync(userPath(cli.values.verdicts), lines.join('\n') + '\n');
  }
  console.log(
    `per submission (both exercises, one grader): median ${pct(50).toFixed(2)} s, p90 ${pct(90).toFixed(2)} s, max ${(times.at(-1)! / 1000).toFixed(2)} s`,
  );
  const secs = (x: number) => `${x.toFixed(2)} s`;
  // Where the time goes: one exercise run's mean time by what was handed in, slowest first. A class's
  // figure moves with its mix: a variant that leaks a timer waits out the test that catches it.
  const byVariant = new Map<string, number[]>();
  for (const r of grading.results)
    for (const e of r.exercises) {
      if (e.status !== 'graded') continue;
      const key = `${e.id} ${handedIn.get(r.learner.email)?.[e.id as Core] ?? '?'}`;
      byVariant.set(key, [...(byVariant.get(key) ?? []), e.report.durationMs]);
    }
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length / 1000;
  const ranked = [...byVariant].map(([key, xs]) => ({ key, n: xs.length, s: mean(xs) })).sort((a, b) => b.s - a.s);
  const references = ranked.filter((v) => v.key.endsWith(' reference'));
  const out = [
    `${count} submission files (${BAD} bad), ${Object.keys(CORE).join(' and ')} each, in rotation: the reference, an alternative, a buggy variant or the starter; ` +
      `${choice.confined ? `strict grading in confined sandboxes (${choice.mechanism})` : 'plain child processes'}.`,
    '',
    '| graders (`--jobs`) | graded | rejected | wall time | per graded submission (wall) | per submission, median | p90 | max |',
    '| --- | --- | --- | --- | --- | --- | --- | --- |',
    `| ${jobs} | ${grading.results.length} | ${grading.rejected.length} | ${(wall / 1000).toFixed(1)} s | ${secs(wall / 1000 / Math.max(1, grading.results.length))} | ${secs(pct(50))} | ${secs(pct(90))} | ${secs(times.at(-1)! / 1000)} |`,
    '',
    `Exercise runs passing every rule: ${passed} of ${grading.results.length * Object.keys(CORE).length}.`,
    '',
    `One exercise run, mean time (one grader), the references: ${references.map((v) => `${v.key} ${secs(v.s)}`).join(', ')}; ` +
      `the slowest of ${ranked.length} kinds handed in: ${ranked
        .slice(0, 6)
        .map((v) => `${v.key} ${secs(v.s)} (${v.n} run${v.n === 1 ? '' : 's'})`)
        .join(', ')}.`,
  ];
  console.log(`\n${out.join('\n')}`);
  // The section is the target's run (a class of 100, strictly); a smaller or unconfined run is a check, not a figure.
  if (choice.confined && count === 100) recordBench('grade-class', out.join('\n'));
  else console.log('\n(not confined, or not 100 files: not written to docs/benchmarks.md)');
} finally {
  rmSync(dir, { recursive: true, force: true });
}
