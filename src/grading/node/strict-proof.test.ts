// The proof again, through strict grading: every catalogue entry of every exercise (reference,
// starter, every buggy variant, every alternative) gets, test by test, the
// same verdict with the learner's code in its own confined process as with everything in one
// process (the verdicts proof.test.ts recorded, or a fresh in-process grade when none match).
// Needs bubblewrap (skipped with the reason otherwise, or failed under GRADER_REQUIRE_CONFINEMENT=1).
import { afterAll, describe, expect, test } from 'vitest';
import { filesHash, loadCatalogue, recordedVerdicts, verdictsOf, allVariants, type Verdicts } from './testing/proof-catalogue.ts';
import { ConfinedSandbox, confinementStatus, fsExerciseSource, gradeWith, NodeSandbox, StrictGrader } from '../index.ts';

const source = fsExerciseSource();
const status = confinementStatus();
const required = process.env.GRADER_REQUIRE_CONFINEMENT === '1';
const SLOW = 300_000;

/**
 * Verdicts that depend on how soon after loading the learner's module a test runs, measured with the
 * real clock. Only buggy variants that read the real clock instead of the injected one have them
 * (they fail in both ways; only these tests' verdicts may differ). exercise -> variant -> test names.
 * deadline-middleware's D11 was here for two such variants until its test accepted any header between
 * two reads of remaining() (one value on the injected clock).
 */
const CLOCK_BOUND: Record<string, Record<string, string[]>> = {
  // Measures time from its module's load with the real clock: this test passes only when the suite
  // reaches it within the 1 s "deadline" of loading the module, which two processes take longer to do.
  'retry-helper': {
    'buggy/date-now-clock': ['R14 an abort during an attempt near the deadline ends as aborted, not no-time-left'],
  },
};

/**
 * At most `n` slots at once (the machines have two cores); a job may take several. A regrade after a
 * difference takes every slot: a test that makes thousands of calls across the processes (backoff's
 * property tests) can time out when another grade competes for the cores, and must be judged alone.
 */
function limiter(n: number) {
  let active = 0;
  const waiting = new Set<() => void>();
  return async <T>(job: () => Promise<T>, slots = 1): Promise<T> => {
    while (active + slots > n) await new Promise<void>((r) => waiting.add(r));
    active += slots;
    try {
      return await job();
    } finally {
      active -= slots;
      for (const wake of [...waiting]) {
        waiting.delete(wake);
        wake();
      }
    }
  };
}
const limit = limiter(2);

const strict = new StrictGrader(() => ConfinedSandbox.create(), { source });
const inProcess = new Map<string, NodeSandbox[]>();
afterAll(async () => {
  await strict.dispose();
  await Promise.all([...inProcess.values()].flat().map((s) => s.dispose()));
});

async function oneProcessVerdicts(id: string, name: string, files: Record<string, string>, hash: string): Promise<Verdicts> {
  const recorded = recordedVerdicts(id, name, hash);
  if (recorded) return recorded;
  const sandbox = inProcess.get(id)?.pop() ?? (await NodeSandbox.create());
  try {
    return verdictsOf(await gradeWith({ exerciseId: id, files, lang: 'en' }, sandbox, { source, typecheck: false, warm: true }));
  } finally {
    inProcess.set(id, [...(inProcess.get(id) ?? []), sandbox]);
  }
}

// Every exercise: one the protocol cannot carry fails here (extend the protocol, see http-bridge.mjs).
const ids = await source.ids();

describe.skipIf(!status.available && !required)(
  `strict grading gives the one-process verdicts${status.available ? '' : ` (skipped: ${status.reason?.en})`}`,
  () => {
    test('the machine can confine runs', () => {
      expect(status.available, status.reason?.en).toBe(true);
    });

    for (const id of ids) {
      describe.concurrent(`exercise ${id}`, async () => {
        const bundle = (await source.load(id))!;
        for (const variant of allVariants(await loadCatalogue(id, bundle))) {
          test(`${variant.name}: same verdict for every test`, { timeout: SLOW }, async () => {
            const hash = filesHash(variant.files, bundle.tests);
            const skip = CLOCK_BOUND[id]?.[variant.name] ?? [];
            const keep = (v: Verdicts) => Object.fromEntries(Object.entries(v.tests).filter(([name]) => !skip.includes(name)));
            // Tests that wait on real timers (10 to 20 ms windows) can flip either way on a loaded
            // machine, in one process as in two: a difference is graded again, both ways, twice at
            // most, the strict grade then alone on the machine's cores. A suspicion is graded again
            // too (one CI run of many saw one for an honest variant, its detail not printed then).
            let expected: Verdicts | undefined;
            let outcome: Awaited<ReturnType<StrictGrader['grade']>> | undefined;
            for (let attempt = 0; attempt < 3; attempt++) {
              expected = await limit(() => oneProcessVerdicts(id, variant.name, variant.files, attempt === 0 ? hash : 'fresh'));
              outcome = await limit(() => strict.grade({ exerciseId: id, files: variant.files, lang: 'en' }), attempt === 0 ? 1 : 2);
              const same = JSON.stringify(keep(verdictsOf(outcome.report))) === JSON.stringify(keep(expected));
              if (same && outcome.suspicions.length === 0) break;
              // Said in the run's output, so a difference that a regrade clears still leaves a trace.
              console.warn(
                `strict proof ${id} ${variant.name}, attempt ${attempt + 1}: ${same ? 'same verdicts' : 'verdicts differ'}; suspicions ${JSON.stringify(outcome.suspicions)}`,
              );
            }
            const got = verdictsOf(outcome!.report);
            expect(keep(got), `verdicts through strict grading (${outcome!.report.message ?? ''})`).toEqual(keep(expected!));
            expect(got.status).toBe(expected!.status);
            expect(outcome!.suspicions, `nothing in the catalogue looks like tampering: ${JSON.stringify(outcome!.suspicions)}`).toEqual([]);
          });
        }
      });
    }
  },
);
