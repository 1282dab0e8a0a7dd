// `npm test`: every check the project has, in the order a failure is cheapest to find.
// Lint and format check (Biome), unit tests, type-check, build, then the end-to-end tests of the built site in headless Chromium.
// The summary at the end names every failing test with the start of its error: CI keeps only the
// tail of a long log, and a failure is no use without its name.
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
  ['build', ['astro', 'build']],
  ['end-to-end tests', vitest('e2e.json', '--config', 'e2e/vitest.config.ts'), 'e2e.json'],
];

/** "file > test: first lines of the error" for every failed test of a vitest JSON report. */
function failuresIn(file) {
  let report;
  try {
    report = JSON.parse(readFileSync(join(reports, file), 'utf8'));
  } catch {
    return [];
  }
  const out = [];
  for (const suite of report.testResults ?? []) {
    const where = suite.name.replace(`${process.cwd()}/`, '');
    const failed = (suite.assertionResults ?? []).filter((t) => t.status === 'failed');
    if (!failed.length && suite.status === 'failed') out.push(`${where}: ${(suite.message ?? '').slice(0, 1200)}`);
    for (const t of failed) out.push(`${where} > ${t.fullName}\n      ${(t.failureMessages ?? []).join('\n').slice(0, 1200).replaceAll('\n', '\n      ')}`);
  }
  return out;
}

const results = [];
for (const [name, [bin, ...args], json] of steps) {
  console.log(`\n━━ ${name}: ${bin} ${args.join(' ')}`);
  const started = Date.now();
  const { status } = spawnSync(`node_modules/.bin/${bin}`, args, { stdio: 'inherit' });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  results.push({ name, ok: status === 0, seconds, failures: status === 0 || !json ? [] : failuresIn(json) });
  if (status !== 0) break;
}
rmSync(reports, { recursive: true, force: true });

console.log('\n━━ summary');
for (const r of results) {
  console.log(`${r.ok ? 'ok  ' : 'FAIL'}  ${r.name} (${r.seconds} s)`);
  for (const f of r.failures) console.log(`  ✗ ${f}`);
}
const failed = results.filter((r) => !r.ok).length + (steps.length - results.length);
process.exit(failed ? 1 : 0);
