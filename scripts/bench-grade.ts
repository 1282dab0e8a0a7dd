// npm run bench:grade [-- --runs N] [--no-record] : cold and warm grading time of the core exercises,
// written into docs/benchmarks.md (section bench:grade) unless --no-record.
// first = a fresh sandbox (new temp dir, first vitest start); again = re-grading in the same
// sandbox from the same process, as the local runner does when a learner runs the tests again.
// "cold" starts vitest (and tsc) for every grade, as `npm run check` does; "kept warm" leaves vitest
// running between grades (exercises/_env/grader-warm.mjs) and type-checks with a kept TypeScript
// language service, as the local runner does.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  editablePaths,
  fsExerciseSource,
  gradeWith,
  killSandboxesOnSignals,
  NodeSandbox,
  nodeTypeCheck,
  warmTypeChecker,
  REPO_ROOT,
  type GradeOptions,
} from '../src/grading/index.ts';
import { RECORD_OPTION, recordBench } from './bench-record.ts';
import { readCli, wholeNumber } from './run-cli.ts';

killSandboxesOnSignals();

const CORE = ['retry-helper', 'deadline-middleware'];
const cli = readCli({
  usage: {
    en: 'Usage: npm run bench:grade -- [--runs N] [--no-record]   (default 3; writes docs/benchmarks.md)',
    vi: 'Cách dùng: npm run bench:grade -- [--runs N] [--no-record]   (mặc định 3; ghi vào docs/benchmarks.md)',
  },
  options: { runs: { type: 'string' }, ...RECORD_OPTION },
  maxPositionals: 0,
});
const runs = wholeNumber(cli, 'runs', 3);
const source = fsExerciseSource();
const available = await source.ids();

const secs = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const mid = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
/** label -> exercise -> [first grade, again] medians */
const table = new Map<string, Map<string, [number, number]>>();
const stats = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const median = s[Math.floor(s.length / 2)]!;
  return `median ${(median / 1000).toFixed(2)} s (min ${(s[0]! / 1000).toFixed(2)}, max ${(s.at(-1)! / 1000).toFixed(2)}, n=${s.length})`;
};

console.log(`bench:grade — ${runs} runs per case, node ${process.version}, ${new Date().toISOString()}`);
for (const id of CORE) {
  if (!available.includes(id)) {
    console.log(`${id}: not present yet, skipped`);
    continue;
  }
  const bundle = (await source.load(id))!;
  const files: Record<string, string> = {};
  for (const p of editablePaths(bundle.exercise)) files[p] = readFileSync(join(REPO_ROOT, 'solutions', id, p), 'utf8');
  for (const [label, opts] of [
    ['cold, tests only', { source, typecheck: false }],
    ['cold, + tsc', { source, typecheck: nodeTypeCheck() }],
    ['kept warm, tests only', { source, typecheck: false, warm: true }],
    ['kept warm, + warm type check', { source, typecheck: warmTypeChecker(), warm: true }],
  ] as Array<[string, GradeOptions]>) {
    const cold: number[] = [];
    const warm: number[] = [];
    for (let i = 0; i < runs; i++) {
      const sandbox = await NodeSandbox.create();
      try {
        for (let j = 0; j < 3; j++) {
          const t0 = performance.now();
          const report = await gradeWith({ exerciseId: id, files, lang: 'en' }, sandbox, opts);
          const ms = performance.now() - t0;
          if (report.status !== 'pass') throw new Error(`${id}: the reference did not pass (${report.status}: ${report.message ?? ''})`);
          (j === 0 ? cold : warm).push(ms);
        }
      } finally {
        await sandbox.dispose();
      }
    }
    if (!table.has(label)) table.set(label, new Map());
    table.get(label)!.set(id, [mid(cold), mid(warm)]);
    console.log(`${id.padEnd(20)} ${label.padEnd(36)} first ${stats(cold)}`);
    console.log(`${''.padEnd(20)} ${''.padEnd(36)} again ${stats(warm)}`);
  }
}

const ids = [...new Set([...table.values()].flatMap((m) => [...m.keys()]))];
const out = [
  `The reference of each core exercise, graded ${runs} time${runs === 1 ? '' : 's'} in a fresh sandbox and then twice more in the same one (median; "first" starts the sandbox, "again" is a re-grade):`,
  '',
  `| | ${ids.map((id) => `${id}: first | again`).join(' | ')} |`,
  `| --- | ${ids.map(() => '--- | ---').join(' | ')} |`,
  ...[...table].map(([label, byId]) => `| ${label} | ${ids.map((id) => (byId.has(id) ? byId.get(id)!.map(secs).join(' | ') : '— | —')).join(' | ')} |`),
];
console.log(`\n${out.join('\n')}`);
recordBench('grade', out.join('\n'));
