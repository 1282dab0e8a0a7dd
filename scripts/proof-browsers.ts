// Usage: npm run proof:browsers [-- --engines chromium,firefox]   (needs a build: npm run build; COURSE_DIST names another)
// The worker-runner parity proof on the whole catalogue in every engine: e2e/worker-parity.e2e.ts with
// E2E_PARITY_FULL=1, so Firefox and WebKit grade every buggy variant too, not only their fixed share.
// Prints, per engine and exercise, the entries graded, the time, and every test whose verdict differs
// from the Node grader's; exits 1 when any differs (or a test failed), like the test itself.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readCli } from './run-cli.ts';

const cli = readCli({
  usage: {
    en: 'Usage: npm run proof:browsers -- [--engines chromium,firefox,webkit]   (default: all three; needs npm run build)',
    vi: 'Cách dùng: npm run proof:browsers -- [--engines chromium,firefox,webkit]   (mặc định: cả ba; cần npm run build trước)',
  },
  options: { engines: { type: 'string' } },
  maxPositionals: 0,
});

interface Line {
  engine: string;
  id: string;
  entries: number;
  of: number;
  seconds: number;
  recorded: number;
  mismatches: string[];
}

const dir = mkdtempSync(join(tmpdir(), 'proof-browsers-'));
const report = join(dir, 'parity.jsonl');
const env = { ...process.env, E2E_PARITY_FULL: '1', E2E_PARITY_REPORT: report, ...(cli.values.engines ? { E2E_ENGINES: cli.values.engines } : {}) };
const started = Date.now();
const { status } = spawnSync('node_modules/.bin/vitest', ['run', '--config', 'e2e/vitest.config.ts', 'e2e/worker-parity.e2e.ts'], { stdio: 'inherit', env });
let lines: Line[] = [];
try {
  lines = readFileSync(report, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Line);
} catch {
  // nothing graded: vitest's own output above says why
}
rmSync(dir, { recursive: true, force: true });

console.log(
  `\n━━ proof:browsers: the whole catalogue of every exercise graded in the page, per engine (${((Date.now() - started) / 1000).toFixed(0)} s in all)`,
);
for (const engine of [...new Set(lines.map((l) => l.engine))]) {
  const mine = lines.filter((l) => l.engine === engine);
  const seconds = mine.reduce((s, l) => s + l.seconds, 0);
  const differ = mine.reduce((s, l) => s + l.mismatches.length, 0);
  console.log(`\n${engine}: ${mine.reduce((s, l) => s + l.entries, 0)} entries in ${seconds.toFixed(0)} s, ${differ} differ`);
  for (const l of mine) {
    console.log(
      `  ${l.id.padEnd(18)} ${String(l.entries).padStart(3)} entries  ${l.seconds.toFixed(1).padStart(6)} s  ${l.mismatches.length ? `${l.mismatches.length} differ` : 'all equal'}`,
    );
    for (const m of l.mismatches) console.log(`    ${m.replaceAll('\n', '\n    ')}`);
  }
}
const differences = lines.some((l) => l.mismatches.length > 0);
process.exit(status === 0 && !differences && lines.length > 0 ? 0 : 1);
