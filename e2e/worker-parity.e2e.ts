/**
 * Parity, proven: every entry of the proof (reference, starter, every buggy variant, every
 * alternative) of every exercise graded in the page is graded again by the worker runner, in
 * Chromium, Firefox and WebKit (e2e/engines.ts), and for every test the verdict must equal the Node
 * grader's. Chromium grades the whole catalogue; Firefox and WebKit grade every reference, starter
 * and alternative and every BUGGY_SHARE-th buggy variant by sorted name, the same ones on every run
 * (`npm run proof:browsers` grades everything in all three). The Node verdicts are the ones the Node
 * proof (src/grading/proof.test.ts) recorded for these very files in the unit step of `npm test`;
 * where none were recorded (this file run alone, or a file changed since), the Node grader is run
 * here, once per entry for all engines. An entry that differs is graded again in both (up to twice)
 * before it counts as a difference: a test that waits on real (short) timers can tip either way once on a
 * loaded machine, a difference between the runners does not go away.
 */
import { appendFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { fsExerciseSource } from '../src/grading/node/fs-source.ts';
import { gradeWith } from '../src/grading/core/grade.ts';
import { NodeSandbox } from '../src/grading/node/node-sandbox.ts';
import {
  allVariants,
  filesHash,
  loadCatalogue,
  recordedVerdicts,
  verdictsOf,
  type Catalogue,
  type Variant,
  type Verdicts,
} from '../src/grading/node/testing/proof-catalogue.ts';
import type { Report } from '../src/grading/core/types.ts';
import { describeEngines, type EngineName, type EnginePage } from './engines.ts';
import { skipBrowser } from './fixtures.ts';
import { servePlainStatic } from '../tools/plain-static-server.ts';
import type { ServedSite } from '../tools/serve-site.ts';
import { DIST } from '../tools/site-pages.ts';
import { lessonEmbedding } from './workspace-helpers.ts';

const source = fsExerciseSource();
const ids: string[] = [];
for (const id of await source.ids()) if ((await source.load(id))!.exercise.inBrowser === 'worker') ids.push(id);
/** Pages grading at once: the machines have two cores, and the suites wait on real (short) timers. */
const PAGES = 2;
/** How many times an entry that differs is graded again in both runners before it counts as a difference. */
const REGRADES = 2;
/** Outside Chromium, one buggy variant in this many (the 1st, the 4th, … by sorted name) is graded. */
const BUGGY_SHARE = 3;
/** `npm run proof:browsers`: the whole catalogue in every engine, and a line per engine and exercise in this file. */
const FULL = process.env.E2E_PARITY_FULL === '1';
const REPORT = process.env.E2E_PARITY_REPORT;

/** The entries an engine grades: all of them in Chromium (or with E2E_PARITY_FULL=1), else a fixed share of the buggy ones. */
function entriesFor(engine: EngineName, catalogue: Catalogue): Variant[] {
  if (engine === 'chromium' || FULL) return allVariants(catalogue);
  const buggy = [...catalogue.buggy].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)).filter((_, i) => i % BUGGY_SHARE === 0);
  return [catalogue.reference, catalogue.starter, ...buggy, ...catalogue.alternatives];
}

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
/** The first Node grade of an entry, shared by the engines (a difference is always graded again afresh). */
const firstNodeVerdicts = new Map<string, Promise<Verdicts>>();

function differences(node: Verdicts, worker: Verdicts): string[] {
  const out: string[] = [];
  if (node.status !== worker.status) out.push(`run: ${node.status} in Node, ${worker.status} in the page`);
  for (const name of new Set([...Object.keys(node.tests), ...Object.keys(worker.tests)])) {
    if (node.tests[name] !== worker.tests[name]) out.push(`${name}: ${node.tests[name] ?? 'absent'} in Node, ${worker.tests[name] ?? 'absent'} in the page`);
  }
  return out;
}

/** Grades `files` with the page's own runner (the workspace's gradeFiles), as the Run button would. */
const inPage = async (page: EnginePage, id: string, files: Record<string, string>) =>
  verdictsOf(
    (await page.evaluate(
      ([ex, files]) =>
        (document.querySelector(`course-workspace[data-exercise="${ex}"]`) as unknown as { gradeFiles(f: unknown): Promise<unknown> }).gradeFiles(files),
      [id, files] as const,
    )) as Report,
  );

describe.skipIf(skipBrowser())("the worker runner gives the Node grader's verdicts", () => {
  describeEngines((engineName, engine) => {
    for (const id of ids) {
      it(`${id}: every test of ${engineName === 'chromium' || FULL ? 'every' : 'a fixed share of the'} proof entr${engineName === 'chromium' || FULL ? 'y' : 'ies'}`, async () => {
        const started = Date.now();
        const bundle = (await source.load(id))!;
        const catalogue = await loadCatalogue(id, bundle);
        const entries = entriesFor(engineName, catalogue);
        const pages: EnginePage[] = [];
        for (let i = 0; i < PAGES; i++) {
          const page = await engine().open(`${site!.url}/en/${lessonEmbedding(id)}/`);
          onTestFinished(() => page.close());
          await page.waitFor(
            `${id}'s workspace to be ready`,
            (ex) => document.querySelector(`course-workspace[data-exercise="${ex}"]`)?.getAttribute('data-phase') === 'ready',
            id,
            30_000,
          );
          pages.push(page);
        }
        const mismatches: string[] = [];
        let recorded = 0;
        const queue = [...entries];
        await Promise.all(
          pages.map(async (page) => {
            for (let entry = queue.shift(); entry; entry = queue.shift()) {
              const hash = filesHash(entry.files, bundle.tests);
              const hit = recordedVerdicts(id, entry.name, hash);
              if (hit) recorded++;
              const key = `${id}\0${entry.name}\0${hash}`;
              const files = entry.files;
              if (!hit && !firstNodeVerdicts.has(key)) firstNodeVerdicts.set(key, nodeVerdicts(id, files));
              let diff = differences(hit ?? (await firstNodeVerdicts.get(key)!), await inPage(page, id, files));
              // A timing test can tip either way on a loaded machine (WebKit beside another file's grading
              // stretches the page's timers most): grade again in both, up to REGRADES times, before calling
              // it a difference. A difference between the runners comes back every time.
              for (let again = 1; diff.length && again <= REGRADES; again++) {
                diff = differences(await nodeVerdicts(id, files), await inPage(page, id, files));
                if (diff.length === 0)
                  console.log(`${engineName} ${id} ${entry.name}: differed, agreed when graded again in both (${again} time(s); timing on a loaded machine)`);
              }
              if (diff.length) mismatches.push(`${entry.name}:\n    ${diff.join('\n    ')}`);
            }
          }),
        );
        const seconds = (Date.now() - started) / 1000;
        const all = allVariants(catalogue).length;
        console.log(
          `${engineName} ${id}: ${entries.length} of ${all} entries in ${seconds.toFixed(1)} s, Node verdicts recorded by the proof for ${recorded}, ${mismatches.length} differ`,
        );
        if (REPORT) appendFileSync(REPORT, `${JSON.stringify({ engine: engineName, id, entries: entries.length, of: all, seconds, recorded, mismatches })}\n`);
        // The differences go in the message, whole: chai would cut the array short.
        expect(
          mismatches.length,
          `verdicts that differ between the Node grader and the worker runner in ${engineName} (${id}):\n  ${mismatches.join('\n  ')}`,
        ).toBe(0);
      }, 900_000);
    }
  });
});
