// Usage: npm run bench:page [-- /en/timeouts/why-timeouts/ ...] [--no-record]  (needs a built site: npm run build)
// Serves dist/ (or COURSE_DIST) with `astro preview`, loads each page in headless Chromium and prints what it loads:
// JavaScript bytes, total bytes and request count, before any interaction. With the default pages, writes its
// table into docs/benchmarks.md (section bench:page) unless --no-record.
import { launchBrowser } from '../tools/browser.ts';
import { serveSite } from '../tools/serve-site.ts';
import { RECORD_OPTION, recordBench } from './bench-record.ts';
import { readCli } from './run-cli.ts';

const cli = readCli({
  usage: {
    en: 'Usage: npm run bench:page -- [/en/some/page/ ...] [--no-record]   (default: a lesson in both languages, a lesson with a lab, an exercise page, home; needs npm run build; the default pages are written to docs/benchmarks.md)',
    vi: 'Cách dùng: npm run bench:page -- [/vi/trang/nao-do/ ...] [--no-record]   (mặc định: một bài học ở cả hai ngôn ngữ, một bài có lab, một trang bài tập, trang chủ; cần npm run build trước; các trang mặc định được ghi vào docs/benchmarks.md)',
  },
  options: { ...RECORD_OPTION },
});
const pages = cli.positionals.filter((a) => a.startsWith('/'));
const chosen = pages.length > 0;
if (!chosen) pages.push('/vi/timeouts/why-timeouts/', '/en/timeouts/why-timeouts/', '/en/backoff-jitter/jitter/', '/en/when-to-retry/one-layer/', '/en/');

const site = await serveSite(process.env.COURSE_DIST ?? 'dist');
const base = site.url;
const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;

const browser = await launchBrowser();
const out = ['Bytes each page loads before any interaction, uncompressed as served (a static host would also gzip or brotli them), headless Chromium:', ''];
out.push('| page | JavaScript | total | requests |', '| --- | --- | --- | --- |');
for (const path of pages) {
  const page = await browser.newPage();
  const sizes: { type: string; bytes: number }[] = [];
  page.on('requestfinished', async (request) => {
    const response = await request.response();
    const body = await response?.body().catch(() => undefined);
    sizes.push({ type: request.resourceType(), bytes: body?.length ?? 0 });
  });
  await page.goto(base + path, { waitUntil: 'networkidle' });
  await new Promise((r) => setTimeout(r, 300));
  const js = sizes.filter((s) => s.type === 'script').reduce((a, s) => a + s.bytes, 0);
  const total = sizes.reduce((a, s) => a + s.bytes, 0);
  out.push(`| \`${path}\` | ${kb(js)} | ${kb(total)} | ${sizes.length} |`);
  await page.close();
}
await browser.close();
site.stop();
console.log(out.join('\n'));
if (chosen) console.log('\n(pages chosen on the command line: not written to docs/benchmarks.md)');
else recordBench('page', out.join('\n'));
