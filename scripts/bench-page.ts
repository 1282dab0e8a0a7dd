// Usage: npm run bench:page [-- /en/timeouts/why-timeouts/ ...]  (needs a built site: npm run build)
// Serves dist/ (or COURSE_DIST) with `astro preview`, loads each page in headless Chromium and prints what it loads:
// JavaScript bytes, total bytes and request count, before any interaction.
import { spawn } from 'node:child_process';
import { launchBrowser } from '../e2e/browser.ts';

const pages = process.argv.slice(2).filter((a) => a.startsWith('/'));
if (!pages.length) pages.push('/vi/timeouts/why-timeouts/', '/en/timeouts/why-timeouts/', '/en/when-to-retry/one-layer/', '/en/');

const port = 4400 + Math.floor(Math.random() * 500);
const dist = process.env.COURSE_DIST ?? 'dist';
const args = ['preview', '--host', '127.0.0.1', '--port', String(port), '--outDir', dist, '--ignore-lock'];
const server = spawn('node_modules/.bin/astro', args, { stdio: 'ignore' });
const base = `http://127.0.0.1:${port}`;
for (let i = 0; i < 100; i++) {
  try {
    if ((await fetch(`${base}/vi/`)).ok) break;
  } catch {}
  await new Promise((r) => setTimeout(r, 200));
}

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
server.kill();
console.log('(uncompressed bytes as served; a static host would also gzip or brotli them)');
