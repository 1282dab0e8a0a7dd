/**
 * Compute time of each simulation at its default size: a few warm-up runs, then the median of several
 * timed runs. Writes its table into docs/benchmarks.md (section bench:sims) unless --no-record.
 *   npm run bench:sims [-- --runs N] [--no-record]
 */
import { DEFAULT_SEED, SIMS, defaults } from '../src/sims/index.ts';
import { RECORD_OPTION, recordBench } from './bench-record.ts';
import { readCli, wholeNumber } from './run-cli.ts';

const cli = readCli({
  usage: {
    en: 'Usage: npm run bench:sims -- [--runs N] [--no-record]   (default 15; writes docs/benchmarks.md)',
    vi: 'Cách dùng: npm run bench:sims -- [--runs N] [--no-record]   (mặc định 15; ghi vào docs/benchmarks.md)',
  },
  options: { runs: { type: 'string' }, ...RECORD_OPTION },
  maxPositionals: 0,
});
const RUNS = wholeNumber(cli, 'runs', 15);
const WARMUP = 3;

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};
const ms = (x: number) => `${x.toFixed(1)} ms`;

const out = [`Each simulation at its default parameters, ${RUNS} timed runs after ${WARMUP} warm-up runs (Node, one thread):`, ''];
out.push('| simulation | median | min | max |', '| --- | --- | --- | --- |');
for (const sim of SIMS) {
  const params = defaults(sim.params);
  for (let i = 0; i < WARMUP; i++) sim.run(params, DEFAULT_SEED + i);
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    sim.run(params, DEFAULT_SEED + i);
    times.push(performance.now() - t0);
  }
  out.push(`| ${sim.name} | ${ms(median(times))} | ${ms(Math.min(...times))} | ${ms(Math.max(...times))} |`);
}
console.log(out.join('\n'));
recordBench('sims', out.join('\n'));
