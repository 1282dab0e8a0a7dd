// Usage: npm run bench:labs [-- --dist <folder>] [-- --changes N]   (needs a built site: npm run build)
// Serves the build with `astro preview`, opens each lab's lesson in headless Chromium and measures:
// - the time from a parameter change (a value typed into a lab's number box) to the frame that shows the
//   redrawn chart and figures, over several changes (median and max), and the worker's compute time;
// - the JavaScript the lesson page loads before the lab is activated, and what activating it adds
//   (controller, uPlot, worker).
import { launchBrowser } from '../e2e/browser.ts';
import { serveSite } from '../e2e/serve-site.ts';
import { readCli, wholeNumber } from './run-cli.ts';

const cli = readCli({
  usage: {
    en: 'Usage: npm run bench:labs -- [--dist FOLDER] [--changes N]   (default dist, 8; needs npm run build)',
    vi: 'Cách dùng: npm run bench:labs -- [--dist THƯ-MỤC] [--changes N]   (mặc định dist, 8; cần npm run build trước)',
  },
  options: { dist: { type: 'string' }, changes: { type: 'string' } },
  maxPositionals: 0,
});
const dist = cli.values.dist ?? process.env.COURSE_DIST ?? 'dist';
const changes = wholeNumber(cli, 'changes', 8);

/** A lesson per lab, and a parameter with values that are each new to the lab (no cache hits). */
const LABS = [
  { sim: 'jitter-waves', path: '/en/backoff-jitter/jitter/', key: 'clients', values: [900, 1100, 1200, 1300, 800, 1400, 950, 1050, 1150, 850] },
  { sim: 'retry-storm', path: '/en/retry-budgets/retry-storms/', key: 'budgetPercent', values: [5, 15, 20, 25, 30, 12, 8, 18, 22, 14] },
  { sim: 'hedging', path: '/en/hedging/tail-at-scale/', key: 'hedgeAfterPercentile', values: [90, 85, 80, 97, 99, 75, 70, 92, 88, 60] },
  { sim: 'deadline-chain', path: '/en/deadlines/propagating-deadlines/', key: 'gatewayTimeoutMs', values: [250, 350, 400, 450, 200, 500, 320, 280, 600, 700] },
  { sim: 'amplification', path: '/en/when-to-retry/one-layer/', key: 'attemptsPerLayer', values: [2, 4, 5, 6, 7, 8, 9, 10, 1, 3] },
  { sim: 'timeout-choice', path: '/en/timeouts/choosing-a-timeout/', key: 'medianMs', values: [30, 50, 60, 35, 45, 55, 70, 80, 25, 42] },
];

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
  rows.push([lab.sim, lab.key, median(times).toFixed(0), Math.max(...times).toFixed(0), median(compute).toFixed(0), kb(before), kb(own), kb(after)]);
  await context.close();
}
await browser.close();
site.stop();

const head = ['lab', 'parameter changed', 'median ms', 'max ms', 'compute ms', 'page JS before', 'lab part of it', '+JS on activation'];
const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
const line = (cells: string[]): string => cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
console.log(`Input change -> redrawn chart (${changes} changes per lab, headless Chromium), and JavaScript loaded by the lesson page.`);
console.log(line(head));
for (const r of rows) console.log(line(r));
const { loadavg } = await import('node:os');
console.log(
  `load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}: on a busy machine these times overstate what a learner sees.`,
);
console.log('(JS bytes uncompressed, as served. "page JS before": everything the lesson loads without touching the lab, other');
console.log(' features included; "lab part of it": the <course-lab> bootstrap; "+JS on activation": controller, uPlot, sims, worker.)');
console.log("(The first change of each lab also pays for compiling the worker's code, hence the max.)");
