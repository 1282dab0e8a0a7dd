// Usage: npm run bench:failing [-- <exercise id>…] [--runs N] [--cold] [--verdicts FILE] [--all] [--no-record]
// How long a failing run takes to grade, against the reference: for each exercise, the Node grader
// (tests only, as the proof grades) times the reference (median of --runs grades, 3 by default), the
// starter and every buggy variant, and flags any entry that takes more than twice the reference's
// time (graded twice before it is flagged: the faster grade counts). A suite whose tests wait out
// per-test timeouts on real time makes a learner's first runs slow; every failing run should be
// graded about as fast as a passing one.
// --cold starts vitest for every grade (`npm run check`); by default vitest is kept warm between
// grades of an exercise, as the local runner does. --verdicts FILE also writes every graded entry's
// verdicts (the run's status and each test's pass/fail), and --all grades the alternatives too, so
// two checkouts can be compared test by test. A run of every exercise with vitest kept warm writes its
// table into docs/benchmarks.md (section bench:failing) unless --no-record.
import { writeFileSync } from 'node:fs';
import { allVariants, loadCatalogue, verdictsOf, type Variant, type Verdicts } from '../src/grading/node/testing/proof-catalogue.ts';
import { fsExerciseSource, gradeWith, killSandboxesOnSignals, NodeSandbox, type Report } from '../src/grading/index.ts';
import { RECORD_OPTION, recordBench } from './bench-record.ts';
import { readCli, wholeNumber } from './run-cli.ts';

killSandboxesOnSignals();

const cli = readCli({
  usage: {
    en: 'Usage: npm run bench:failing -- [<exercise id>…] [--runs N] [--cold] [--verdicts FILE] [--all] [--no-record]   (default: every exercise, 3 runs of the reference; every exercise, warm, is written to docs/benchmarks.md)',
    vi: 'Cách dùng: npm run bench:failing -- [<id bài tập>…] [--runs N] [--cold] [--verdicts FILE] [--all] [--no-record]   (mặc định: mọi bài tập, chấm lời giải mẫu 3 lần; chạy mọi bài tập, warm, thì ghi vào docs/benchmarks.md)',
  },
  options: { runs: { type: 'string' }, cold: { type: 'boolean' }, verdicts: { type: 'string' }, all: { type: 'boolean' }, ...RECORD_OPTION },
});
const RUNS = wholeNumber(cli, 'runs', 3);
const verdictsFile = cli.values.verdicts;
const cold = cli.values.cold === true;
const all = cli.values.all === true;
const args = cli.positionals;
const LIMIT = 2; // the slowest failing run may take at most twice the reference's time

const source = fsExerciseSource();
const available = await source.ids();
const unknown = args.filter((a) => !available.includes(a));
if (unknown.length > 0) process.exit(cli.usageError(`unknown exercise(s): ${unknown.join(', ')} (known: ${available.join(', ')})`));
const ids = args.length > 0 ? args : available;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const slowestTests = (r: Report, n = 3) =>
  [...r.tests]
    .sort((a, b) => b.duration - a.duration)
    .slice(0, n)
    .map((t) => `${t.name} (${Math.round(t.duration)} ms${t.timedOut ? ', timed out' : ''})`)
    .join('; ');

interface Row {
  id: string;
  reference: number;
  starter: number;
  slowest: { name: string; ms: number };
  flagged: string[];
}
const rows: Row[] = [];
const verdicts: Record<string, Record<string, Verdicts>> = {};

console.log(
  `bench:failing — Node grader, tests only, vitest ${cold ? 'started for every grade' : 'kept warm per exercise'}; ` +
    `reference: median of ${RUNS}; node ${process.version}, ${new Date().toISOString()}\n`,
);
for (const id of ids) {
  const bundle = (await source.load(id))!;
  const catalogue = await loadCatalogue(id, bundle);
  let sandbox = await NodeSandbox.create();
  const grade = async (v: Variant) => {
    if (cold) {
      await sandbox.dispose();
      sandbox = await NodeSandbox.create();
    }
    const t0 = performance.now();
    const report = await gradeWith({ exerciseId: id, files: v.files, lang: 'en' }, sandbox, { source, typecheck: false, warm: !cold });
    const ms = performance.now() - t0;
    (verdicts[id] ??= {})[v.name] = verdictsOf(report);
    return { ms, report };
  };
  try {
    if (!cold) await grade(catalogue.reference); // starts vitest: not counted
    const refRuns: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const { ms, report } = await grade(catalogue.reference);
      if (report.status !== 'pass') throw new Error(`${id}: the reference did not pass (${report.status}: ${report.message ?? ''})`);
      refRuns.push(ms);
    }
    const reference = median(refRuns);
    const failing = all ? allVariants(catalogue).filter((v) => v.name !== 'reference') : [catalogue.starter, ...catalogue.buggy];
    const times = new Map<string, number>();
    const flagged: string[] = [];
    for (const v of failing) {
      let { ms, report } = await grade(v);
      if (ms > LIMIT * reference) {
        // A loaded machine can stall one grade: an entry over the limit is graded again, and the faster counts.
        const again = await grade(v);
        if (again.ms < ms) ({ ms, report } = again);
      }
      times.set(v.name, ms);
      if (ms > LIMIT * reference && !v.name.startsWith('alternative/')) {
        flagged.push(v.name);
        console.log(`  ${id} ${v.name}: ${s(ms)} = ${(ms / reference).toFixed(1)}x the reference; slowest tests: ${slowestTests(report)}`);
      }
    }
    const buggy = catalogue.buggy.map((b) => ({ name: b.name.replace(/^buggy\//, ''), ms: times.get(b.name)! }));
    const slowest = buggy.reduce((a, b) => (b.ms > a.ms ? b : a), { name: '—', ms: 0 });
    rows.push({ id, reference, starter: times.get('starter')!, slowest, flagged });
    console.log(`${id}: reference ${s(reference)}, starter ${s(times.get('starter')!)}, slowest buggy ${slowest.name} ${s(slowest.ms)}`);
  } finally {
    await sandbox.dispose();
  }
}

const ratio = (ms: number, ref: number) => `${(ms / ref).toFixed(1)}x${ms > LIMIT * ref ? ' **over 2x**' : ''}`;
const out = [
  `Node grader, tests only, vitest ${cold ? 'started for every grade' : 'kept warm per exercise'}; the reference is the median of ${RUNS} grade${RUNS === 1 ? '' : 's'}, every other entry graded once (twice when over ${LIMIT}x, the faster counts)${all ? ', alternatives included' : ''}:`,
  '',
  '| exercise | reference | starter | slowest buggy variant | slowest / reference |',
  '| --- | --- | --- | --- | --- |',
];
for (const r of rows) {
  const worst = Math.max(r.starter, r.slowest.ms);
  out.push(`| ${r.id} | ${s(r.reference)} | ${s(r.starter)} | ${r.slowest.name} ${s(r.slowest.ms)} | ${ratio(worst, r.reference)} |`);
}
const over = rows.flatMap((r) => r.flagged.map((f) => `${r.id} ${f}`));
out.push(
  '',
  over.length === 0 ? `Every starter and buggy variant was graded within ${LIMIT}x of its reference.` : `Over ${LIMIT}x the reference: ${over.join(', ')}.`,
);
console.log(`\n${out.join('\n')}`);
if (args.length === 0 && !cold) recordBench('failing', out.join('\n'));
else console.log('\n(some exercises only, or --cold: not written to docs/benchmarks.md)');
if (verdictsFile) {
  writeFileSync(verdictsFile, JSON.stringify(verdicts, null, 1));
  console.log(`verdicts written to ${verdictsFile}`);
}
