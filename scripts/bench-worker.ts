// Usage: npm run bench:worker [-- --runs 3]   (needs a build: npm run build; COURSE_DIST names another)
// The worker runner in headless Chromium, on a plain static host: for each exercise graded in the page,
// the first grade of the reference on a cold cache (worker, runner and suite loaded), the median of
// repeated grades, the starter's grade, and the bytes the worker runner loads (gzip).
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { launchBrowser } from '../e2e/browser.ts';
import { servePlainStatic } from '../e2e/plain-static-server.ts';
import { DIST } from '../e2e/site-pages.ts';
import { lessonEmbedding } from '../e2e/workspace-helpers.ts';
import { fsExerciseSource } from '../src/grading/node/fs-source.ts';
import { readCli, wholeNumber } from './run-cli.ts';

const cli = readCli({
  usage: {
    en: 'Usage: npm run bench:worker -- [--runs N]   (default 3; needs npm run build)',
    vi: 'Cách dùng: npm run bench:worker -- [--runs N]   (mặc định 3; cần npm run build trước)',
  },
  options: { runs: { type: 'string' } },
  maxPositionals: 0,
});
const RUNS = wholeNumber(cli, 'runs', 3);
const source = fsExerciseSource();
const site = await servePlainStatic(DIST);
const browser = await launchBrowser();
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const rows: string[] = [];
const loaded = new Map<string, number>(); // path → gzip bytes, for the files the grading loads

try {
  for (const id of await source.ids()) {
    const { exercise, starter } = (await source.load(id))!;
    if (exercise.inBrowser !== 'worker') continue;
    const file = exercise.files.find((f) => f.editable)!.path;
    const reference = { [file]: readFileSync(`solutions/${id}/${file}`, 'utf8') };
    const context = await browser.newContext({ baseURL: site.url }); // a fresh context: an empty cache
    const page = await context.newPage();
    await page.goto(`/en/${lessonEmbedding(id)}/`);
    await page.waitForFunction((ex) => document.querySelector(`course-workspace[data-exercise="${ex}"]`)?.getAttribute('data-phase') === 'ready', id);
    const grading: string[] = [];
    context.on('request', (r) => grading.push(new URL(r.url()).pathname));
    const grade = (files: Record<string, string>) =>
      page.evaluate(
        async ([ex, f]) => {
          const started = performance.now();
          const report = await (
            document.querySelector(`course-workspace[data-exercise="${ex}"]`) as unknown as { gradeFiles(x: unknown): Promise<{ status: string }> }
          ).gradeFiles(f);
          return { ms: performance.now() - started, status: report.status };
        },
        [id, files] as const,
      );
    const cold = await grade(reference);
    for (const path of grading) {
      if (path.endsWith('.js') && !loaded.has(path)) loaded.set(path, gzipSync(readFileSync(`${DIST}${path}`)).length);
    }
    const again: number[] = [];
    for (let i = 0; i < RUNS; i++) again.push((await grade(reference)).ms);
    const start = await grade({ [file]: starter[file] ?? '' });
    if (cold.status !== 'pass') throw new Error(`${id}: the reference did not pass in the page (${cold.status})`);
    rows.push(`| ${id} | ${(cold.ms / 1000).toFixed(2)} s | ${Math.round(median(again))} ms | ${(start.ms / 1000).toFixed(2)} s |`);
    await context.close();
  }
} finally {
  await browser.close();
  site.stop();
}

console.log(`worker runner in Chromium (${RUNS} re-grades each, median):\n`);
console.log('| exercise | first grade, cold cache | re-grade (reference) | starter |');
console.log('|---|---|---|---|');
for (const r of rows) console.log(r);
const shared = [...loaded].filter(([p]) => !p.startsWith('/exercise-suites/'));
const suites = [...loaded].filter(([p]) => p.startsWith('/exercise-suites/'));
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
console.log(
  `\nbytes the worker runner loads (gzip): runner ${kb(shared.reduce((n, [, b]) => n + b, 0))} (${shared.map(([p, b]) => `${p} ${kb(b)}`).join(', ')});`,
);
console.log(`suites ${suites.map(([p, b]) => `${p.replace('/exercise-suites/', '')} ${kb(b)}`).join(', ')}`);
