/**
 * Where the figures live: every `npm run bench:*` script writes its current table into its own
 * section of docs/benchmarks.md, between `<!-- bench:NAME -->` and `<!-- /bench:NAME -->`, stamped
 * with the day, the commit, the machine and its load. So a figure in the docs is always what a
 * script last printed, never a number typed by hand; history goes in commit messages.
 * `--no-record` (or BENCH_RECORD=0) prints without writing, for a run on a machine that is not
 * representative. The pure part (`replaceSection`, `stamp`) is tested in bench-record.test.ts.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';

export const BENCHMARKS_DOC = new URL('../docs/benchmarks.md', import.meta.url).pathname;

/** Spread into a script's readCli options so `--no-record` parses. */
export const RECORD_OPTION = { 'no-record': { type: 'boolean' } } as const;

const open = (name: string) => `<!-- bench:${name} -->`;
const close = (name: string) => `<!-- /bench:${name} -->`;

/** The document with NAME's section replaced by `body`; an error names a missing or broken section. */
export function replaceSection(doc: string, name: string, body: string): string {
  const start = doc.indexOf(open(name));
  const end = doc.indexOf(close(name));
  if (start < 0 || end < start) throw new Error(`docs/benchmarks.md has no section ${open(name)} … ${close(name)}: add one where its table belongs.`);
  return `${doc.slice(0, start + open(name).length)}\n${body.trim()}\n${doc.slice(end)}`;
}

/** The names of the sections a document holds, in order. */
export function sectionNames(doc: string): string[] {
  return [...doc.matchAll(/<!-- bench:([\w-]+) -->/g)].map((m) => m[1]!);
}

export interface Machine {
  date: Date;
  commit: string;
  node: string;
  cores: number;
  /** One-minute load average at the start and at the end of the run. */
  load: [number, number];
}

/** The line that heads a recorded table: when, on what, and how busy the machine was. */
export function stamp(m: Machine): string {
  const day = m.date.toISOString().slice(0, 16).replace('T', ' ');
  const busy = Math.max(...m.load) > m.cores ? ' (busy: figures are upper bounds)' : '';
  return `_Recorded ${day} UTC, commit \`${m.commit}\`, Node ${m.node}, ${m.cores} cores, load average ${m.load[0].toFixed(1)} at the start and ${m.load[1].toFixed(1)} at the end${busy}._`;
}

const startLoad = loadavg()[0]!;

function commitNow(): string {
  try {
    const hash = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { encoding: 'utf8' }).trim();
    return dirty ? `${hash}+changes` : hash;
  } catch {
    return 'unknown';
  }
}

/**
 * Writes `body` (Markdown: the script's table and any line it needs) into NAME's section, stamped,
 * unless recording is off. Prints where it went.
 */
export function recordBench(name: string, body: string): void {
  if (process.argv.includes('--no-record') || process.env['BENCH_RECORD'] === '0') return;
  const machine: Machine = { date: new Date(), commit: commitNow(), node: process.version, cores: availableParallelism(), load: [startLoad, loadavg()[0]!] };
  const doc = readFileSync(BENCHMARKS_DOC, 'utf8');
  writeFileSync(BENCHMARKS_DOC, replaceSection(doc, name, `${stamp(machine)}\n\n${body}`));
  console.log(`\n(written to docs/benchmarks.md, section bench:${name}; --no-record prints only)`);
}
