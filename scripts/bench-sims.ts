/**
 * Compute time of each simulation at its default size: a few warm-up runs, then the median of several timed runs.
 *   npm run bench:sims [-- --runs N]
 */
import { loadavg } from 'node:os';
import { DEFAULT_SEED, SIMS, defaults } from '../src/sims/index.ts';
import { readCli, wholeNumber } from './run-cli.ts';

const cli = readCli({
  usage: { en: 'Usage: npm run bench:sims -- [--runs N]   (default 15)', vi: 'Cách dùng: npm run bench:sims -- [--runs N]   (mặc định 15)' },
  options: { runs: { type: 'string' } },
  maxPositionals: 0,
});
const RUNS = wholeNumber(cli, 'runs', 15);
const WARMUP = 3;

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

const lines: string[] = [];
lines.push(
  `${'simulation'.padEnd(16)}${'median ms'.padStart(11)}${'min ms'.padStart(9)}${'max ms'.padStart(9)}   (${RUNS} runs after ${WARMUP} warm-up, node ${process.version})`,
);
for (const sim of SIMS) {
  const params = defaults(sim.params);
  for (let i = 0; i < WARMUP; i++) sim.run(params, DEFAULT_SEED + i);
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    sim.run(params, DEFAULT_SEED + i);
    times.push(performance.now() - t0);
  }
  lines.push(
    `${sim.name.padEnd(16)}${median(times).toFixed(1).padStart(11)}${Math.min(...times)
      .toFixed(1)
      .padStart(9)}${Math.max(...times)
      .toFixed(1)
      .padStart(9)}`,
  );
}
lines.push(
  `load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}: figures from a busy machine overstate the compute time`,
);
process.stdout.write(`${lines.join('\n')}\n`);
