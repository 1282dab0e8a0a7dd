// Usage: npx tsx scripts/validate-content.ts — checks every lesson, module and quiz under content/.
import { loadContent } from '../src/course/content-files.ts';
import { checkContent } from '../src/course/content-rules.ts';
import { SIMS } from '../src/sims/index.ts';

const content = loadContent();
const problems = checkContent(content, { sims: SIMS.map((s) => s.name) });
for (const p of problems) console.log(`${p.file}: ${p.message}`);
console.log(
  `${content.lessons.length} lesson file(s), ${content.quizzes.size} quiz(zes), ${content.modules.length} module(s): ` +
    (problems.length ? `${problems.length} problem(s).` : 'no problems.'),
);
process.exit(problems.length ? 1 : 0);
