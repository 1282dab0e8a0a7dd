// Usage: npm run bench:worker [-- --runs 3] [-- --engines chromium,firefox,webkit]   (needs a build: npm run build)
// The worker runner on a plain static host, in Chromium, Firefox and WebKit side by side: for each
// exercise, the first grade of the reference on a cold cache (a fresh page: worker, runner and suite
// loaded), the median of repeated grades, the starter's grade; and the bytes the worker runner loads
// (gzip), with the part the in-page node:http adds. Engines missing on the machine are left out, said so.
import { readFileSync, readdirSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { launchEngine, missingPackages, type EngineName } from '../tools/engines/index.ts';
import { servePlainStatic } from '../tools/plain-static-server.ts';
import { DIST, lessonEmbedding } from '../tools/site-pages.ts';
import { fsExerciseSource } from '../src/grading/node/fs-source.ts';
import { RECORD_OPTION, recordBench } from './bench-record.ts';
import { readCli, wholeNumber } from './run-cli.ts';

const cli = readCli({
  usage: {
    en: 'Usage: npm run bench:worker -- [--runs N] [--engines chromium,firefox,webkit] [--no-record]   (default 3, all three; needs npm run build; writes docs/benchmarks.md)',
    vi: 'Cách dùng: npm run bench:worker -- [--runs N] [--engines chromium,firefox,webkit] [--no-record]   (mặc định 3, cả ba; cần npm run build trước; ghi vào docs/benchmarks.md)',
  },
  options: { runs: { type: 'string' }, engines: { type: 'string' }, ...RECORD_OPTION },
  maxPositionals: 0,
});
const RUNS = wholeNumber(cli, 'runs', 3);
/** Between a grade and the next re-grade, as a learner reading the report would leave. */
const PAUSE_MS = 1000;
const wanted = (cli.values.engines ?? 'chromium,firefox,webkit').split(',').map((s) => s.trim()) as EngineName[];
const engines = wanted.filter((e) => missingPackages(e).length === 0);
for (const e of wanted.filter((x) => !engines.includes(x))) console.log(`(${e} left out: apt-get install ${missingPackages(e).join(' ')})`);

const source = fsExerciseSource();
const site = await servePlainStatic(DIST);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
type Cell = { cold: number; again: number; starter: number };
const results = new Map<string, Map<EngineName, Cell>>();

try {
  for (const name of engines) {
    const engine = await launchEngine(name);
    try {
      for (const id of await source.ids()) {
        const { exercise, starter } = (await source.load(id))!;
        const editable = exercise.files.filter((f) => f.editable).map((f) => f.path);
        const reference = Object.fromEntries(editable.map((p) => [p, readFileSync(`solutions/${id}/${p}`, 'utf8')]));
        const starterFiles = Object.fromEntries(editable.map((p) => [p, starter[p] ?? '']));
        // A fresh page of its own: nothing of the worker or the suite is cached yet.
        const page = await engine.open(`${site.url}/en/${lessonEmbedding(id)}/`);
        await page.waitFor(
          'the workspace to be ready',
          (ex) => document.querySelector(`course-workspace[data-exercise="${ex}"]`)?.getAttribute('data-phase') === 'ready',
          id,
          30_000,
        );
        const grade = (files: Record<string, string>) =>
          page.evaluate(
            async ([ex, f]) => {
              const started = performance.now();
              const report = await (
                document.querySelector(`course-workspace[data-exercise="${ex}"]`) as unknown as { gradeFiles(x: unknown): Promise<{ status: string }> }
              ).gradeFiles(f);
              return { ms: performance.now() - started, status: report.status };
            },
            [id, files] as [string, Record<string, string>],
          );
        const cold = await grade(reference);
        if (cold.status !== 'pass') throw new Error(`${name} ${id}: the reference did not pass in the page (${cold.status})`);
        const again: number[] = [];
        // A learner's re-grade comes after reading the report and editing: each one starts a second
        // after the last ended. Back to back, WebKit's re-grade also pays for tearing down the worker
        // that just finished (docs/benchmarks.md says by how much), which no learner waits for.
        for (let i = 0; i < RUNS; i++) {
          await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
          again.push((await grade(reference)).ms);
        }
        const start = await grade(starterFiles);
        if (!results.has(id)) results.set(id, new Map());
        results.get(id)!.set(name, { cold: cold.ms, again: median(again), starter: start.ms });
        await page.close();
      }
    } finally {
      await engine.close();
    }
  }
} finally {
  site.stop();
}

const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const out: string[] = [
  `Worker runner, reference and starter (${RUNS} re-grades each, each ${PAUSE_MS / 1000} s after the last ended, median), on a plain static host:`,
  '',
];
out.push(`| exercise | ${engines.map((e) => `${e}: first grade, cold | re-grade | starter`).join(' | ')} |`);
out.push(`|---|${engines.map(() => '---|---|---').join('|')}|`);
for (const [id, byEngine] of results) {
  const cells = engines.map((e) => {
    const c = byEngine.get(e);
    return c ? `${s(c.cold)} | ${s(c.again)} | ${s(c.starter)}` : '— | — | —';
  });
  out.push(`| ${id} | ${cells.join(' | ')} |`);
}
for (const e of wanted.filter((x) => !engines.includes(x))) out.push('', `${e} was left out: its packages are missing (${missingPackages(e).join(' ')}).`);

// What the page loads to grade (gzip), from the build: the grading worker and its chunks, and each suite.
const gz = (path: string) => gzipSync(readFileSync(path)).length;
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
const assets = readdirSync(`${DIST}/_astro`).filter((f) => /^(grade-worker|process-worker)-.*\.js$/.test(f));
const suites = readdirSync(`${DIST}/exercise-suites`).map((f) => `${f.replace(/\.js$/, '')} ${kb(gz(`${DIST}/exercise-suites/${f}`))}`);
// The part the in-page node:http adds: src/runner/worker/node/http with readable-stream, events and buffer, minified.
const shim = new URL('../src/runner/worker/node/process-shim.ts', import.meta.url).pathname;
const http = await build({
  stdin: {
    contents: "import { createNodeHttp } from './src/runner/worker/node/http/index.ts'; globalThis.x = createNodeHttp;",
    resolveDir: process.cwd(),
    loader: 'ts',
  },
  bundle: true,
  minify: true,
  write: false,
  format: 'esm',
  platform: 'browser',
  logLevel: 'silent',
  plugins: [{ name: 'process-shim', setup: (b) => void b.onResolve({ filter: /^process\/?$/ }, () => ({ path: shim })) }],
});
out.push(
  '',
  `Bytes the page loads to grade (gzip): ${assets.map((f) => `${f.replace(/-[\w-]+\.js$/, '')} ${kb(gz(`${DIST}/_astro/${f}`))}`).join(', ')}.`,
  `Suites: ${suites.join(', ')}.`,
  `Of the process worker, the in-page node:http (createNodeHttp with readable-stream, events, buffer), minified: ${kb(gzipSync(http.outputFiles[0]!.contents).length)}.`,
);
console.log(`\n${out.join('\n')}`);
recordBench('worker', out.join('\n'));
