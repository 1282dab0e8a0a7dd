// npm run check -- <id> [--from DIR] [--json] [--lang vi|en] [--strict]
// Exit codes: 0 every test passes, 1 a test fails or the run errors, 2 usage error.
import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import {
  ConfinedSandbox,
  confinementStatus,
  editablePaths,
  fsExerciseSource,
  gradeExercise,
  GradeInputError,
  killSandboxesOnSignals,
  REPO_ROOT,
  StrictGrader,
  type Report,
} from '../src/grading/index.ts';

killSandboxesOnSignals();
import { userPath } from './user-path.ts';
import { msg } from './cli-messages.ts';
import { runCli, type CliContext } from './run-cli.ts';
import { formatReport } from './format-report.ts';

runCli({
  usage: { vi: msg('vi', 'usage.check'), en: msg('en', 'usage.check') },
  options: { from: { type: 'string' }, json: { type: 'boolean' }, strict: { type: 'boolean' } },
  main: check,
});

async function check({
  values,
  positionals,
  lang,
  usageError: usage,
}: CliContext<{ from: { type: 'string' }; json: { type: 'boolean' }; strict: { type: 'boolean' } }>): Promise<number> {
  const [id, ...extra] = positionals;
  if (!id) return usage(msg(lang, 'usage.missingId'));
  if (extra.length) return usage(msg(lang, 'usage.unknownOption', { option: extra.join(' ') }));

  const source = fsExerciseSource();
  const bundle = await source.load(id);
  if (!bundle) return usage(msg(lang, 'usage.unknownExercise', { id, known: (await source.ids()).join(', ') }));

  const dir = values.from !== undefined ? userPath(values.from) : join(REPO_ROOT, 'workbook', id);
  const files: Record<string, string> = {};
  for (const path of editablePaths(bundle.exercise)) {
    const full = join(dir, path);
    if (!existsSync(full)) {
      const file = relative(process.cwd(), full) || full;
      return usage(
        values.from !== undefined
          ? msg(lang, 'check.missingFrom', { file, dir: relative(process.cwd(), dir) || dir, expected: editablePaths(bundle.exercise).join(', ') })
          : msg(lang, 'check.missingFile', { file, id }),
      );
    }
    files[path] = readFileSync(full, 'utf8');
  }

  let report: Report;
  try {
    const strict = values.strict === true;
    if (strict && !confinementStatus().available) {
      process.stderr.write(msg(lang, 'check.strictUnavailable', { reason: confinementStatus().reason?.[lang] ?? '' }) + '\n');
      return 2;
    }
    if (strict) {
      const grader = new StrictGrader(() => ConfinedSandbox.create(), { source });
      const outcome = await grader.grade({ exerciseId: id, files, lang }).finally(() => grader.dispose());
      report = outcome.report;
      if (outcome.suspicions.length) {
        process.stderr.write(msg(lang, 'check.tampering', { what: outcome.suspicions.map((s) => `${s.kind}: ${s.detail}`).join('; ') }) + '\n');
      }
    } else report = await gradeExercise({ exerciseId: id, files, lang });
  } catch (err) {
    if (err instanceof GradeInputError) return usage(err.localized(lang));
    throw err;
  }
  if (values.json) process.stdout.write(JSON.stringify(report, null, 2) + '\n');
  else process.stdout.write(formatReport(report, bundle.exercise, lang, { color: process.stdout.isTTY === true, names: testNames(id, lang) }) + '\n');
  return report.status === 'pass' ? 0 : 1;
}

/** The exercise's Vietnamese test names, for a report in Vietnamese. */
function testNames(id: string, lang: string): Record<string, string> {
  const file = join(REPO_ROOT, 'exercises', id, 'test-names.vi.json');
  return lang === 'vi' && existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, string>) : {};
}
