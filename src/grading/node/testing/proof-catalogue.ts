/**
 * The proof's catalogue of each exercise (Node, tests only): the reference, the starter, every buggy
 * variant (a patch against the reference) with the rules it must break, and every alternative correct solution, read from
 * solutions/<id>/. The Node proof (proof.test.ts) grades them all; the worker-runner parity check
 * (e2e/worker-parity.e2e.ts) grades them again in Chromium and compares each test's verdict, which
 * the Node proof records here.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { editablePaths } from '../../core/index.ts';
import { readTree, REPO_ROOT } from '../fs-source.ts';
import type { ExerciseBundle } from '../../core/index.ts';
import { applyVariantPatch, parseVariantPatch } from '../../core/variant-patch.ts';
import type { Report, TestStatus } from '../../core/index.ts';

export interface Variant {
  /** `reference`, `starter`, `buggy/<name>` or `alternative/<name>`. */
  name: string;
  files: Record<string, string>;
  /** Rules a buggy variant must break (its patch's `Breaks:`); empty otherwise. */
  expectFail: string[];
  /** What a buggy variant gets wrong (its patch's `Bug:`). */
  bug?: string;
}

export interface Catalogue {
  reference: Variant;
  starter: Variant;
  buggy: Variant[];
  alternatives: Variant[];
}

/** solutions/<id>/alternatives/<name>.ts (single editable file) or <name>/ (a folder of files): whole programs. */
async function alternatives(id: string, editable: string[], reference: Record<string, string>): Promise<Variant[]> {
  const dir = join(REPO_ROOT, 'solutions', id, 'alternatives');
  if (!existsSync(dir)) return [];
  const out: Variant[] = [];
  for (const entry of readdirSync(dir).sort()) {
    const full = join(dir, entry);
    let files: Record<string, string>;
    if (statSync(full).isDirectory()) files = { ...reference, ...(await readTree(full)) };
    else if (editable.length === 1) files = { [editable[0]!]: readFileSync(full, 'utf8') };
    else continue;
    out.push({ name: `alternative/${entry.replace(/\.ts$/, '')}`, files, expectFail: [] });
  }
  return out;
}

/** solutions/<id>/buggy/<name>.patch: the reference with one mistake (variant-patch.ts); a patch that no longer applies throws. */
export function buggyVariant(id: string, name: string, reference: Record<string, string>): Variant {
  const where = `solutions/${id}/buggy/${name}.patch`;
  const patch = parseVariantPatch(readFileSync(join(REPO_ROOT, where), 'utf8'), where);
  return { name: `buggy/${name}`, files: applyVariantPatch(patch, reference, where), expectFail: patch.breaks, bug: patch.bug };
}

function buggyVariants(id: string, reference: Record<string, string>): Variant[] {
  const dir = join(REPO_ROOT, 'solutions', id, 'buggy');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((entry) => entry.endsWith('.patch'))
    .sort()
    .map((entry) => buggyVariant(id, entry.slice(0, -'.patch'.length), reference));
}

export async function loadCatalogue(id: string, bundle: ExerciseBundle): Promise<Catalogue> {
  const editable = editablePaths(bundle.exercise);
  const reference: Record<string, string> = {};
  for (const p of editable) reference[p] = readFileSync(join(REPO_ROOT, 'solutions', id, p), 'utf8');
  const starter: Record<string, string> = {};
  for (const p of editable) starter[p] = bundle.starter[p] ?? '';
  return {
    reference: { name: 'reference', files: reference, expectFail: [] },
    starter: { name: 'starter', files: starter, expectFail: [] },
    buggy: buggyVariants(id, reference),
    alternatives: await alternatives(id, editable, reference),
  };
}

export const allVariants = (c: Catalogue): Variant[] => [c.reference, c.starter, ...c.buggy, ...c.alternatives];

/** What a report says of each test, and of the run: what two graders must agree on. */
export interface Verdicts {
  status: Report['status'];
  tests: Record<string, TestStatus>;
}

export function verdictsOf(report: Report): Verdicts {
  const tests: Record<string, TestStatus> = {};
  for (const t of report.tests) tests[t.name] = t.status;
  return { status: report.status, tests };
}

/** Recorded Node verdicts: exercise → variant → the files' hash and the verdicts. */
const RECORD_DIR = join(REPO_ROOT, 'node_modules', '.cache', 'course-proof');
const recordFile = (id: string) => join(RECORD_DIR, `${id}.json`);
type Recorded = Record<string, { hash: string; verdicts: Verdicts }>;

export function filesHash(files: Record<string, string>, suite: Record<string, string>): string {
  const h = createHash('sha256');
  for (const [k, v] of Object.entries({ ...files, ...Object.fromEntries(Object.entries(suite).map(([p, t]) => [`tests/${p}`, t])) }).sort())
    h.update(`${k}\0${v}\0`);
  return h.digest('hex');
}

/** Adds to what was recorded before (a filtered run records only what it graded; stale entries fail the hash check). */
export function recordVerdicts(id: string, entries: Recorded): void {
  mkdirSync(RECORD_DIR, { recursive: true });
  let before: Recorded = {};
  try {
    before = JSON.parse(readFileSync(recordFile(id), 'utf8')) as Recorded;
  } catch {
    // nothing recorded yet
  }
  writeFileSync(recordFile(id), JSON.stringify({ ...before, ...entries }, null, 1));
}

/** The Node verdicts recorded for `variant`, when they were recorded for these very files and suite. */
export function recordedVerdicts(id: string, variant: string, hash: string): Verdicts | undefined {
  try {
    const entry = (JSON.parse(readFileSync(recordFile(id), 'utf8')) as Recorded)[variant];
    return entry?.hash === hash ? entry.verdicts : undefined;
  } catch {
    return undefined;
  }
}
