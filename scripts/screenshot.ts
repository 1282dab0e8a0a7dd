// Usage: npx tsx scripts/screenshot.ts <url> <out.png> [width] [height] [dark]
// Takes a screenshot in headless Chromium, to look at a page as a reader would.
import { launchBrowser } from '../e2e/browser.ts';
import { readCli } from './run-cli.ts';

const usage = {
  en: 'Usage: npx tsx scripts/screenshot.ts <url> [out.png] [width] [height] [dark]',
  vi: 'Cách dùng: npx tsx scripts/screenshot.ts <url> [out.png] [rộng] [cao] [dark]',
};
const cli = readCli({ usage, options: {}, maxPositionals: 5 });
const [url, out = 'shot.png', width = '1280', height = '900', scheme] = cli.positionals;
if (!url) {
  process.stderr.write(`${usage[cli.lang]}\n`);
  process.exit(2);
}
const browser = await launchBrowser();
const page = await browser.newPage({ viewport: { width: Number(width), height: Number(height) } });
if (scheme === 'dark') await page.emulateMedia({ colorScheme: 'dark' });
await page.goto(url, { waitUntil: 'networkidle' });
await page.screenshot({ path: out, fullPage: false });
await browser.close();
console.log(`saved ${out}`);
