// Usage: npm run build && npm run webcontainer:real-run [-- --headed]
// The one check of the WebContainer path that needs the internet (StackBlitz's servers), so it is not
// part of `npm test`: it serves the build with the isolation headers, opens every exercise with
// `?runner=webcontainer` in Chromium, boots the WebContainer and installs the env (timing both), grades
// the reference and one buggy variant of every exercise there, and compares every test's verdict with
// the Node grader's (what `npm run check` runs). Exit 0 when every verdict matches, 1 otherwise, 2 when
// StackBlitz cannot be reached.
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../tools/browser.ts';
import { serveSite } from '../tools/serve-site.ts';
import { DIST, lessonEmbedding } from '../tools/site-pages.ts';
import { fsExerciseSource } from '../src/grading/node/fs-source.ts';
import { gradeExercise } from '../src/grading/index.ts';
import { loadCatalogue, verdictsOf } from '../src/grading/node/testing/proof-catalogue.ts';
import type { Report } from '../src/grading/core/types.ts';
import { readCli } from './run-cli.ts';

const cli = readCli({
  usage: {
    en: 'Usage: npm run build && npm run webcontainer:real-run -- [--headed]   (needs the internet: StackBlitz)',
    vi: 'Cách dùng: npm run build && npm run webcontainer:real-run -- [--headed]   (cần internet: máy chủ của StackBlitz)',
  },
  options: { headed: { type: 'boolean' } },
  maxPositionals: 0,
});
const headed = cli.values.headed === true;
const source = fsExerciseSource();
const site = await serveSite(DIST, 'astro-preview'); // sends COOP/COEP, no local runner
// Without --disable-background-networking: this run needs the network.
const browser = await chromium.launch({
  executablePath: CHROMIUM_PATH,
  headless: !headed,
  args: CHROMIUM_ARGS.filter((a) => a !== '--disable-background-networking'),
});
let failed = 0;
try {
  const page = await browser.newPage({ baseURL: site.url });
  for (const id of await source.ids()) {
    const bundle = (await source.load(id))!;
    const catalogue = await loadCatalogue(id, bundle);
    await page.goto(`/en/${lessonEmbedding(id)}/?runner=webcontainer`);
    const root = `course-workspace[data-exercise="${id}"]`;
    await page.waitForFunction((sel) => document.querySelector(sel)?.getAttribute('data-phase') === 'standby', root);
    const started = Date.now();
    await page.locator(`${root} [data-action="run"]`).click();
    await page.waitForFunction((sel) => ['ready', 'done', 'unavailable'].includes(document.querySelector(sel)?.getAttribute('data-phase') ?? ''), root, {
      timeout: 300_000,
    });
    if ((await page.locator(root).getAttribute('data-phase')) === 'unavailable') {
      console.error(`${id}: the WebContainer did not start: ${await page.locator(`${root} [data-fallback]`).textContent()}`);
      process.exitCode = 2;
      break;
    }
    console.log(
      `${id}: booted and installed in ${((Date.now() - started) / 1000).toFixed(1)} s (${await page.locator(`${root} [data-notice]`).textContent()})`,
    );
    for (const variant of [catalogue.reference, catalogue.buggy[0]!]) {
      const t0 = Date.now();
      const inBrowser = (await page.evaluate(
        ([sel, files]) => (document.querySelector(sel) as unknown as { gradeFiles(f: unknown): Promise<unknown> }).gradeFiles(files),
        [root, variant.files] as const,
      )) as Report;
      const seconds = ((Date.now() - t0) / 1000).toFixed(1);
      const node = await gradeExercise({ exerciseId: id, files: variant.files, lang: 'en' }, undefined, { typecheck: false });
      const a = verdictsOf(node);
      const b = verdictsOf(inBrowser);
      const diff = [...new Set([...Object.keys(a.tests), ...Object.keys(b.tests)])].filter((t) => a.tests[t] !== b.tests[t]);
      if (a.status !== b.status || diff.length) failed++;
      console.log(
        `  ${variant.name}: ${b.status} in ${seconds} s in the WebContainer, ${a.status} in Node${diff.length ? `; differ: ${diff.join('; ')}` : ', every test agrees'}`,
      );
    }
  }
} finally {
  await browser.close();
  site.stop();
}
if (failed) {
  console.error(`${failed} grades differ between the WebContainer and Node`);
  process.exitCode = 1;
}
