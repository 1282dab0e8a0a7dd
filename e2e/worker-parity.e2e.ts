/**
 * Parity, proven: every entry of the proof (reference, starter, every buggy variant, every
 * alternative) of every exercise graded in the page is graded again by the worker runner in
 * headless Chromium, and for every test the verdict must equal the Node grader's. The Node verdicts
 * are the ones the Node proof (src/grading/proof.test.ts) recorded for these very files in the unit
 * step of `npm test`; where none were recorded (this file run alone, or a file changed since), the
 * Node grader is run here. An entry that differs is graded again in both before it counts as a
 * difference: a test that waits on real (short) timers can tip either way once on a loaded machine,
 * a difference between the runners does not go away.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fsExerciseSource } from '../src/grading/node/fs-source.ts';
import { gradeWith } from '../src/grading/core/grade.ts';
import { NodeSandbox } from '../src/grading/node/node-sandbox.ts';
import { allVariants, filesHash, loadCatalogue, recordedVerdicts, verdictsOf, type Verdicts } from '../src/grading/node/proof-catalogue.ts';
import type { Report } from '../src/grading/core/types.ts';
import { skipBrowser, useBrowser, type Page } from './fixtures.ts';
import { servePlainStatic } from './plain-static-server.ts';
import type { ServedSite } from './serve-site.ts';
import { DIST } from './site-pages.ts';
import { lessonEmbedding } from './workspace-helpers.ts';

const source = fsExerciseSource();
const ids: string[] = [];
for (const id of await source.ids()) if ((await source.load(id))!.exercise.inBrowser === 'worker') ids.push(id);
/** Pages grading at once: the machines have two cores, and the suites wait on real (short) timers. */
const PAGES = 2;

let site: ServedSite | undefined;
/** One per exercise: a warm sandbox keeps its exercise's vitest (and test files) between grades. */
const sandboxes = new Map<string, NodeSandbox>();
beforeAll(async () => {
  if (!skipBrowser()) site = await servePlainStatic(DIST);
});
afterAll(async () => {
  site?.stop();
  await Promise.all([...sandboxes.values()].map((s) => s.dispose()));
});

let nodeQueue: Promise<unknown> = Promise.resolve();
/** Grades with the Node grader, one run at a time (the pages ask concurrently; a sandbox runs one grade). */
function nodeVerdicts(id: string, files: Record<string, string>): Promise<Verdicts> {
  const run = nodeQueue.then(async () => {
    let sandbox = sandboxes.get(id);
    if (!sandbox) sandboxes.set(id, (sandbox = await NodeSandbox.create()));
    return verdictsOf(await gradeWith({ exerciseId: id, files, lang: 'en' }, sandbox, { source, typecheck: false, warm: true }));
  });
  nodeQueue = run.catch(() => undefined);
  return run;
}

function differences(node: Verdicts, worker: Verdicts): string[] {
  const out: string[] = [];
  if (node.status !== worker.status) out.push(`run: ${node.status} in Node, ${worker.status} in the page`);
  for (const name of new Set([...Object.keys(node.tests), ...Object.keys(worker.tests)])) {
    if (node.tests[name] !== worker.tests[name]) out.push(`${name}: ${node.tests[name] ?? 'absent'} in Node, ${worker.tests[name] ?? 'absent'} in the page`);
  }
  return out;
}

describe.skipIf(skipBrowser())("the worker runner gives the Node grader's verdicts", () => {
  const browser = useBrowser();

  for (const id of ids) {
    it(`${id}: every test of every proof entry`, async () => {
      const bundle = (await source.load(id))!;
      const entries = allVariants(await loadCatalogue(id, bundle));
      const pages: Page[] = [];
      for (let i = 0; i < PAGES; i++) {
        const context = await browser.context({ baseURL: site!.url });
        const page = await context.newPage();
        await page.goto(`/en/${lessonEmbedding(id)}/`);
        await page.waitForFunction((ex) => document.querySelector(`course-workspace[data-exercise="${ex}"]`)?.getAttribute('data-phase') === 'ready', id);
        pages.push(page);
      }
      const mismatches: string[] = [];
      let recorded = 0;
      const queue = [...entries];
      await Promise.all(
        pages.map(async (page) => {
          for (let entry = queue.shift(); entry; entry = queue.shift()) {
            const inPage = async () =>
              verdictsOf(
                (await page.evaluate(
                  ([ex, files]) =>
                    (document.querySelector(`course-workspace[data-exercise="${ex}"]`) as unknown as { gradeFiles(f: unknown): Promise<unknown> }).gradeFiles(
                      files,
                    ),
                  [id, entry.files] as const,
                )) as Report,
              );
            const hit = recordedVerdicts(id, entry.name, filesHash(entry.files, bundle.tests));
            if (hit) recorded++;
            let diff = differences(hit ?? (await nodeVerdicts(id, entry.files)), await inPage());
            if (diff.length) {
              // A timing test can tip either way on a loaded machine: grade again in both before calling it a difference.
              diff = differences(await nodeVerdicts(id, entry.files), await inPage());
              if (diff.length === 0) console.log(`${id} ${entry.name}: differed once, agreed when graded again in both (timing on a loaded machine)`);
            }
            if (diff.length) mismatches.push(`${entry.name}:\n    ${diff.join('\n    ')}`);
          }
        }),
      );
      console.log(`${id}: ${entries.length} entries, Node verdicts recorded by the proof for ${recorded}, ${mismatches.length} differ`);
      // The differences go in the message, whole: chai would cut the array short.
      expect(mismatches.length, `verdicts that differ between the Node grader and the worker runner (${id}):\n  ${mismatches.join('\n  ')}`).toBe(0);
    }, 600_000);
  }
});
