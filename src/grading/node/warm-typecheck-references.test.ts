// The local runner's type check, as it serves a learner who runs the tests again and again: one warm
// checker for every exercise, each in its own sandbox (confined where this machine can confine runs),
// the workspace mounted as a grade mounts it, and a run in the sandbox between checks (a confined run
// leaves bubblewrap's empty mount points in the workspace's node_modules, which is all the checker
// sees of it from outside; before the first run it sees no package at all). Every reference solution must show no diagnostic on every check, and a
// starter the same ones every time, confined or not (issue 28: 15-34 phantom TS2304s under npm start).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { ConfinedSandbox, confinementStatus, fsExerciseSource, NodeSandbox, REPO_ROOT, warmTypeChecker } from '../index.ts';
import { EVENTS_FILE, PROGRESS_FILE } from '../core/source.ts';
import type { Sandbox } from '../core/types.ts';

const ROUNDS = 3;
const source = fsExerciseSource();
const ids = await source.ids();
const confinable = confinementStatus().available;
const required = process.env.GRADER_REQUIRE_CONFINEMENT === '1';
const checker = warmTypeChecker();
const sandboxes: Array<Sandbox & { root: string }> = [];
afterAll(() => Promise.all(sandboxes.map((s) => s.dispose?.())));

type Kept = Sandbox & { readonly root: string; readonly nodeModules: string };
const kinds: Array<[string, () => Promise<Kept>]> = [
  ['plain', () => NodeSandbox.create()],
  ...(confinable || required ? [['confined', () => ConfinedSandbox.create()] as [string, () => Promise<Kept>]] : []),
];
if (!confinable && !required) console.warn(`warm type check: the confined half is skipped (${confinementStatus().reason?.en})`);

/** The grade's files: the environment, the hidden tests, and the exercise's src/ with `editable` in it. */
async function workspace(id: string, editable: (path: string) => string): Promise<Record<string, string>> {
  const bundle = (await source.load(id))!;
  const files: Record<string, string> = { ...bundle.env, [EVENTS_FILE]: '', [PROGRESS_FILE]: '' };
  for (const [path, text] of Object.entries(bundle.tests)) files[`tests/${path}`] = text;
  for (const f of bundle.exercise.files) files[`src/${f.path}`] = f.editable ? editable(f.path) : bundle.starter[f.path]!;
  return files;
}

const starters = new Map<string, string>();

describe.each(kinds)('%s sandbox, one warm checker for every exercise', (kind, create) => {
  test.each(ids)(`%s: the reference has no diagnostic on any of ${ROUNDS} checks, the starter the same ones each time`, { timeout: 60_000 }, async (id) => {
    const sandbox = await create();
    sandboxes.push(sandbox);
    const reference = await workspace(id, (path) => readFileSync(join(REPO_ROOT, 'solutions', id, path), 'utf8'));
    const starter = await workspace(id, (path) => readFileSync(join(REPO_ROOT, 'exercises', id, 'starter', path), 'utf8'));
    const ranInside = async () => {
      const run = await sandbox.run('node', ['-e', '0'], { timeoutMs: 20_000 });
      expect(run.exitCode, run.output).toBe(0);
    };
    const check = () => checker.check(sandbox.root, sandbox.nodeModules);

    await sandbox.mount(reference);
    for (let round = 1; round <= ROUNDS; round++) {
      expect(await check(), `${kind}, check ${round}`).toBe('');
      if (round === 1) await ranInside(); // the first check before any run, the others after
    }
    await sandbox.mount(starter);
    const seen: string[] = [];
    for (let round = 1; round <= ROUNDS; round++) seen.push(await check());
    expect(new Set(seen).size, `${kind}: the starter's diagnostics changed between checks:\n${seen.join('\n---\n')}`).toBe(1);
    expect(seen[0]).not.toMatch(/TS2304|TS2591|TS2688/); // nothing of Node's own types is ever missing
    // The same diagnostics whichever sandbox it ran in.
    const other = starters.get(id);
    if (other === undefined) starters.set(id, seen[0]!);
    else expect(seen[0], `the starter's diagnostics differ between sandboxes`).toBe(other);
    await sandbox.mount(reference);
    expect(await check(), `${kind}: the reference after the starter`).toBe('');
  });
});
