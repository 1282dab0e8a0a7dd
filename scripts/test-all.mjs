// `npm test`: every check the project has, in the order a failure is cheapest to find.
// Unit tests, type-check, build, then the end-to-end tests of the built site in headless Chromium.
import { spawnSync } from 'node:child_process';

const steps = [
  ['unit tests', ['vitest', 'run']],
  ['type-check', ['astro', 'check']],
  ['build', ['astro', 'build']],
  ['end-to-end tests', ['vitest', 'run', '--config', 'e2e/vitest.config.ts']],
];

const results = [];
for (const [name, [bin, ...args]] of steps) {
  console.log(`\n━━ ${name}: ${bin} ${args.join(' ')}`);
  const started = Date.now();
  const { status } = spawnSync(`node_modules/.bin/${bin}`, args, { stdio: 'inherit' });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  results.push({ name, ok: status === 0, seconds });
  if (status !== 0) break;
}

console.log('\n━━ summary');
for (const r of results) console.log(`${r.ok ? 'ok  ' : 'FAIL'}  ${r.name} (${r.seconds} s)`);
const failed = results.filter((r) => !r.ok).length + (steps.length - results.length);
process.exit(failed ? 1 : 0);
