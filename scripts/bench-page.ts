// Usage: npm run bench:page [-- /en/timeouts/why-timeouts/ ...]  (needs a built site: npm run build)
// Serves dist/ (or COURSE_DIST) with `astro preview`, loads each page in headless Chromium and prints what it loads:
// JavaScript bytes, total bytes and request count, before any interaction.
import { launchBrowser } from '../e2e/browser.ts';
import { serveSite } from '../e2e/serve-site.ts';
import { readCli } from './run-cli.ts';

const cli = readCli({
  usage: {
    en: 'Usage: npm run bench:page -- [/en/some/page/ ...]   (default: a lesson in both languages, an exercise page, home; needs npm run build)',
    vi: 'Cách dùng: npm run bench:page -- [/vi/trang/nao-do/ ...]   (mặc định: một bài học ở cả hai ngôn ngữ, một trang bài tập, trang chủ; cần npm run build trước)',
  },
  options: {},
});
const pages = cli.positionals.filter((a) => a.startsWith('/'));
if (!pages.length) pages.push('/vi/timeouts/why-timeouts/', '/en/timeouts/why-timeouts/', '/en/when-to-retry/one-layer/', '/en/');

const site = await serveSite(process.env.COURSE_DIST ?? 'dist');
const base = site.url;

const browser = await launchBrowser();
console.log('page'.padEnd(44), 'JS bytes'.padStart(10), 'total bytes'.padStart(12), 'requests'.padStart(9));
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
  console.log(path.padEnd(44), String(js).padStart(10), String(total).padStart(12), String(sizes.length).padStart(9));
  await page.close();
}
await browser.close();
site.stop();
console.log('(uncompressed bytes as served; a static host would also gzip or brotli them)');
