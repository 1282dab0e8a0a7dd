// A vitest that stays started between grading runs in one sandbox, so a re-grade skips Node,
// vitest and config start-up (about half of a cold run). The grader writes the learner's files,
// then sends `run` on stdin; this script invalidates them, reruns the suite with the same config
// and reporter as `vitest run`, and answers with one marker line. Used on the command line only;
// a cold `vitest run` is what the browser runs.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { createVitest } from 'vitest/node';

const DONE = '__grader_warm_done__';
const vitest = await createVitest('test', { config: 'vitest.config.mjs', watch: false });

function filesUnder(dir) {
  let out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    out = entry.isDirectory() ? out.concat(filesUnder(path)) : out.concat(path);
  }
  return out;
}

// What each file held at the last run: a file rewritten with the same text (strict grading mounts the
// same stand-ins for every learner) keeps vite's transform; any other change is invalidated.
const seen = new Map();
const digest = (path) => {
  try {
    return createHash('sha256').update(readFileSync(path)).digest('hex');
  } catch {
    return undefined; // gone since the listing
  }
};

let started = false;
for await (const line of createInterface({ input: process.stdin })) {
  if (line.trim() !== 'run') continue;
  // Every run may bring new learner files (and, in principle, re-mounted tests).
  for (const file of [...filesUnder('src'), ...filesUnder('tests')]) {
    const path = resolve(file);
    const now = digest(path);
    if (seen.get(path) === now) continue;
    seen.set(path, now);
    vitest.invalidateFile(path);
  }
  let exitCode = 0;
  try {
    if (started) await vitest.rerunFiles();
    else await vitest.start();
    started = true;
    const failed = vitest.state.getCountOfFailedTests() > 0 || vitest.state.getUnhandledErrors().length > 0;
    const broken = vitest.state.getFiles().some((f) => f.result?.state === 'fail');
    exitCode = failed || broken ? 1 : 0;
  } catch (err) {
    console.error(err);
    exitCode = 1;
  }
  process.stdout.write(`\n${DONE}${JSON.stringify({ exitCode })}\n`);
}
await vitest.close();
