// Usage: npm run bench:labs [-- --dist <folder>] [-- --changes N] [--no-record]   (needs a built site: npm run build)
// Serves the build with `astro preview`, opens each lab's lesson in headless Chromium and measures:
// - the time from a parameter change (a value typed into a lab's number box) to the frame that shows the
//   redrawn chart and figures, over several changes (median and max), and the worker's compute time;
// - the JavaScript the lesson page loads before the lab is activated, and what activating it adds
//   (controller, uPlot, worker);
// - the same redraws with the learner's own code on ("use my code", the reference solution saved as theirs).
// Writes its table into docs/benchmarks.md (section bench:labs) unless --no-record.
import { readFileSync } from 'node:fs';
import { launchBrowser } from '../tools/browser.ts';
import { serveSite } from '../tools/serve-site.ts';
import { RECORD_OPTION, recordBench } from './bench-record.ts';
import { readCli, wholeNumber } from './run-cli.ts';

const cli = readCli({
  usage: {
    en: 'Usage: npm run bench:labs -- [--dist FOLDER] [--changes N] [--no-record]   (default dist, 8; needs npm run build; writes docs/benchmarks.md)',
    vi: 'Cách dùng: npm run bench:labs -- [--dist THƯ-MỤC] [--changes N] [--no-record]   (mặc định dist, 8; cần npm run build trước; ghi vào docs/benchmarks.md)',
  },
  options: { dist: { type: 'string' }, changes: { type: 'string' }, ...RECORD_OPTION },
  maxPositionals: 0,
});
const dist = cli.values.dist ?? process.env.COURSE_DIST ?? 'dist';
const changes = wholeNumber(cli, 'changes', 8);

/** The exercise whose reference solution stands in for the learner's code in each lab that runs it. */
const YOURS: Record<string, { exercise: string; file: string }> = {
  'jitter-waves': { exercise: 'backoff', file: 'backoff.ts' },
  'retry-storm': { exercise: 'retry-budget', file: 'budget.ts' },
  'overload-recovery': { exercise: 'adaptive-throttle', file: 'throttle.ts' },
  'timeout-choice': { exercise: 'timeout-choice', file: 'timeout-choice.ts' },
  'reconnect-storm': { exercise: 'backoff', file: 'backoff.ts' },
};

/** A lesson per lab, and a parameter with values that are each new to the lab (no cache hits). */
const LABS = [
  { sim: 'jitter-waves', path: '/en/backoff-jitter/jitter/', key: 'clients', values: [900, 1100, 1200, 1300, 800, 1400, 950, 1050, 1150, 850] },
  { sim: 'retry-storm', path: '/en/retry-budgets/retry-storms/', key: 'budgetPercent', values: [5, 15, 20, 25, 30, 12, 8, 18, 22, 14] },
  { sim: 'hedging', path: '/en/hedging/tail-at-scale/', key: 'hedgeAfterPercentile', values: [90, 85, 80, 97, 99, 75, 70, 92, 88, 60] },
  { sim: 'deadline-chain', path: '/en/deadlines/propagating-deadlines/', key: 'gatewayTimeoutMs', values: [250, 350, 400, 450, 200, 500, 320, 280, 600, 700] },
  { sim: 'amplification', path: '/en/when-to-retry/one-layer/', key: 'attemptsPerLayer', values: [2, 4, 5, 6, 7, 8, 9, 10, 1, 3] },
  { sim: 'timeout-choice', path: '/en/timeouts/choosing-a-timeout/', key: 'medianMs', values: [30, 50, 60, 35, 45, 55, 70, 80, 25, 42] },
  { sim: 'overload-recovery', path: '/en/overload/breakers-and-limits/', key: 'throttleK', values: [2.1, 2.2, 2.3, 1.9, 1.8, 2.4, 2.5, 1.7, 2.6, 1.6] },
  {
    sim: 'reconnect-storm',
    path: '/en/beyond-one-request/long-lived-connections/',
    key: 'clients',
    values: [4000, 6000, 4500, 5500, 3000, 7000, 4200, 5800, 2500, 8000],
  },
].flatMap((lab) => [lab, ...(YOURS[lab.sim] ? [{ ...lab, yours: YOURS[lab.sim]! }] : [])]);

const site = await serveSite(dist);
const base = site.url;

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};
const kb = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KB`;

const browser = await launchBrowser();
const rows: string[][] = [];
for (const lab of LABS) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  const yours = 'yours' in lab ? lab.yours : undefined;
  if (yours) {
    // Saved as the workspace saves it, from another page (an exercise page would save over it).
    await page.goto(`${base}/en/`);
    const code = readFileSync(`solutions/${yours.exercise}/${yours.file}`, 'utf8');
    await page.evaluate(
      ([ex, f, c]) => localStorage.setItem(`course.code.${ex}`, JSON.stringify({ version: 1, files: { [f]: c }, savedAt: new Date().toISOString() })),
      [yours.exercise, yours.file, code] as const,
    );
  }
  const js: { url: string; bytes: number; at: number }[] = [];
  let phase = 0;
  page.on('requestfinished', async (request) => {
    if (!/\.m?js(\?|$)/.test(request.url())) return;
    const at = phase;
    const body = await (await request.response())?.body().catch(() => undefined);
    js.push({ url: request.url(), bytes: body?.length ?? 0, at });
  });
  await page.goto(base + lab.path, { waitUntil: 'networkidle' });
  await new Promise((r) => setTimeout(r, 300));
  phase = 1;
  const el = page.locator(`course-lab[data-sim="${lab.sim}"]`);
  await el.scrollIntoViewIfNeeded();
  await page.waitForFunction((sim) => Number(document.querySelector(`course-lab[data-sim="${sim}"]`)?.getAttribute('data-renders')) >= 1, lab.sim, {
    timeout: 30_000,
  });
  await page.waitForLoadState('networkidle');
  if (yours) {
    const renders = await el.getAttribute('data-renders');
    await el.locator(`[data-yours-code="${yours.exercise}"]`).check();
    await page.waitForFunction(
      ([sim, n]) => {
        const host = document.querySelector(`course-lab[data-sim="${sim}"]`);
        return Number(host?.getAttribute('data-renders')) > Number(n) && host?.getAttribute('data-state') === 'ready';
      },
      [lab.sim, renders] as const,
      { timeout: 30_000 },
    );
  }
  const times: number[] = [];
  const compute: number[] = [];
  for (const value of lab.values.slice(0, changes)) {
    const r = await page.evaluate(
      ({ sim, key, value }) =>
        new Promise<{ ms: number; computeMs: number | null }>((resolve) => {
          const host = document.querySelector(`course-lab[data-sim="${sim}"]`)!;
          const input = host.querySelector<HTMLInputElement>(`[data-input="${key}"]`)!;
          host.addEventListener(
            'course:lab-rendered',
            (e) => {
              const d = (e as CustomEvent<{ computeMs: number | null }>).detail;
              resolve({ ms: performance.now() - t0, computeMs: d.computeMs });
            },
            { once: true },
          );
          input.value = String(value);
          const t0 = performance.now();
          input.dispatchEvent(new Event('input', { bubbles: true }));
        }),
      { sim: lab.sim, key: lab.key, value },
    );
    times.push(r.ms);
    if (r.computeMs !== null) compute.push(r.computeMs);
    await new Promise((r) => setTimeout(r, 50));
  }
  const before = js.filter((j) => j.at === 0).reduce((a, j) => a + j.bytes, 0);
  // The lab's own share of "before": its <course-lab> bootstrap (Astro names the chunk after Lab.astro).
  const own = js.filter((j) => j.at === 0 && /Lab\.astro/.test(j.url)).reduce((a, j) => a + j.bytes, 0);
  const after = js.filter((j) => j.at === 1).reduce((a, j) => a + j.bytes, 0);
  rows.push([
    yours ? `${lab.sim} + your ${yours.exercise}` : lab.sim,
    lab.key,
    median(times).toFixed(0),
    Math.max(...times).toFixed(0),
    median(compute).toFixed(0),
    kb(before),
    kb(own),
    kb(after),
  ]);
  await context.close();
}
await browser.close();
site.stop();

const head = ['lab', 'parameter changed', 'redraw, median', 'redraw, max', 'compute, median', 'page JS before', 'lab part of it', '+JS on activation'];
const ms = (x: string) => `${x} ms`;
const out = [
  `A parameter change to the redrawn chart (${changes} changes per lab, headless Chromium at 1280x800), and the JavaScript the lesson page loads, uncompressed as served:`,
  '',
  `| ${head.join(' | ')} |`,
  `| ${head.map(() => '---').join(' | ')} |`,
  ...rows.map((r) => `| ${[r[0], `\`${r[1]}\``, ms(r[2]!), ms(r[3]!), ms(r[4]!), r[5], r[6], r[7]].join(' | ')} |`),
  '',
  '"page JS before": everything the lesson loads without touching the lab, other features included; "lab part of it": the',
  '`<course-lab>` bootstrap; "+JS on activation": controller, uPlot, simulations, worker. The first change of each lab also',
  "pays for compiling the worker's code, hence the max.",
];
console.log(out.join('\n'));
recordBench('labs', out.join('\n'));
