// `npm test`: every check the project has, in the order a failure is cheapest to find.
// Lint and format check (Biome), unit tests, type-check, build, then the end-to-end tests of the built site in Chromium, Firefox ESR and WebKit.
// The summary at the end names every failing test with the start of its error, and every test that passed only on a second try: CI keeps only the
// tail of a long log, and a failure is no use without its name. It also names each vitest step's
// slowest files, where CI's time goes.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const reports = mkdtempSync(join(tmpdir(), 'course-test-'));
/** vitest's own output, plus a JSON report the summary reads. */
const vitest = (file, ...args) => ['vitest', 'run', ...args, '--reporter=default', '--reporter=json', `--outputFile.json=${join(reports, file)}`];
const steps = [
  ['lint and format', ['biome', 'ci', '--colors=off', '.']],
  ['unit tests', vitest('unit.json'), 'unit.json'],
  ['type-check', ['astro', 'check']],
  // The strict grading runtime is JavaScript that runs as it is, typed in JSDoc (exercises/_env/strict/README.md).
  ['type-check (strict grading runtime)', ['tsc', '-p', 'exercises/_env/strict']],
  ['build', ['astro', 'build']],
  ['end-to-end tests', vitest('e2e.json', '--config', 'e2e/vitest.config.ts'), 'e2e.json'],
];

function readReport(file) {
  try {
    return JSON.parse(readFileSync(join(reports, file), 'utf8'));
  } catch {
    return undefined;
  }
}

/** A test file's path from the repository's root. */
const fileOf = (suite) => suite.name.replace(`${process.cwd()}/`, '');
/** "file > test", then an error's first lines, indented under it. */
const testLine = (suite, t, text) => `${fileOf(suite)} > ${t.fullName}\n      ${text.replaceAll('\n', '\n      ')}`;

/** "file > test: first lines of the error" for every failed test of a vitest JSON report. */
function failuresIn(report) {
  const out = [];
  for (const suite of report?.testResults ?? []) {
    const failed = (suite.assertionResults ?? []).filter((t) => t.status === 'failed');
    if (!failed.length && suite.status === 'failed') out.push(`${fileOf(suite)}: ${(suite.message ?? '').slice(0, 1200)}`);
    for (const t of failed) out.push(testLine(suite, t, (t.failureMessages ?? []).join('\n').slice(0, 1200)));
  }
  return out;
}

/** "file > test: first lines of the first error" for every test that passed only when run again (e2e/vitest.config.ts retries once). */
function passedOnRetryIn(report) {
  return (report?.testResults ?? []).flatMap((suite) =>
    (suite.assertionResults ?? [])
      .filter((t) => t.status === 'passed' && t.failureMessages?.length)
      .map((t) => testLine(suite, t, t.failureMessages[0].slice(0, 600))),
  );
}

/** "12.3 s file" for the slowest test files of a vitest JSON report (files run side by side, so they add up to more than the step). */
function slowestIn(report, count = 6) {
  return (report?.testResults ?? [])
    .map((suite) => ({ where: fileOf(suite), ms: (suite.endTime ?? 0) - (suite.startTime ?? 0) }))
    .sort((a, b) => b.ms - a.ms)
    .slice(0, count)
    .map((f) => `${(f.ms / 1000).toFixed(1).padStart(6)} s  ${f.where}`);
}

const results = [];
for (const [name, [bin, ...args], json] of steps) {
  console.log(`\n━━ ${name}: ${bin} ${args.join(' ')}`);
  const started = Date.now();
  const { status } = spawnSync(`node_modules/.bin/${bin}`, args, { stdio: 'inherit' });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  const report = json ? readReport(json) : undefined;
  results.push({
    name,
    ok: status === 0,
    seconds,
    failures: status === 0 ? [] : failuresIn(report),
    passedOnRetry: passedOnRetryIn(report),
    slowest: slowestIn(report),
  });
  if (status !== 0) break;
}
rmSync(reports, { recursive: true, force: true });

console.log('\n━━ summary');
for (const r of results) {
  console.log(`${r.ok ? 'ok  ' : 'FAIL'}  ${r.name} (${r.seconds} s)`);
  for (const f of r.failures) console.log(`  ✗ ${f}`);
  if (r.passedOnRetry.length) console.log(`  passed only on a second try:\n${r.passedOnRetry.map((f) => `  ↻ ${f}`).join('\n')}`);
  if (r.slowest.length) console.log(`  slowest files:\n${r.slowest.map((line) => `    ${line}`).join('\n')}`);
}
const failed = results.filter((r) => !r.ok).length + (steps.length - results.length);
process.exit(failed ? 1 : 0);
