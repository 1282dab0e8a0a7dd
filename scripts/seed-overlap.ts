// Usage: npx tsx scripts/seed-overlap.ts [files...]   (default: every file under content/)
// Prints each run of 8+ words a content file shares with a seed article; exits 1 if any.
import { readFileSync, readdirSync, statSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { sharedRuns } from '../src/content-lint/seed-overlap.ts';
import { seedDir } from '../src/content-lint/seeds.ts';
import { readCli } from './run-cli.ts';

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

const dir = seedDir();
if (!dir) {
  console.error('No seed folder found (expected ../shared/seeds beside the repository).');
  process.exit(2);
}
const seeds = readdirSync(dir).map((name) => ({ name, text: readFileSync(join(dir, name), 'utf8') }));
const cli = readCli({
  usage: {
    en: 'Usage: npx tsx scripts/seed-overlap.ts [files...]   (default: every file under content/)',
    vi: 'Cách dùng: npx tsx scripts/seed-overlap.ts [file...]   (mặc định: mọi file trong content/)',
  },
  options: {},
});
const targets = cli.positionals.length ? cli.positionals : filesUnder('content');
let found = 0;
for (const file of targets.filter((f) => existsSync(f))) {
  const text = readFileSync(file, 'utf8');
  for (const seed of seeds) {
    for (const run of sharedRuns(text, seed.text)) {
      found++;
      console.log(`${file}: shares with ${seed.name}: "${run.words}"`);
    }
  }
}
console.log(found ? `${found} shared run(s) of 8+ words.` : 'No shared runs of 8+ words.');
process.exit(found ? 1 : 0);
