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
  NOT_STRICT,
  REPO_ROOT,
  StrictGrader,
  type Report,
} from '../src/grading/index.ts';

killSandboxesOnSignals();
import { parseArgs, userPath } from './cli-args.ts';
import { msg, pickLang, type Lang } from './cli-messages.ts';
import { formatReport } from './format-report.ts';

async function main(argv: string[]): Promise<number> {
  const args = parseArgs(argv, ['from', 'lang'], ['json', 'help', 'strict']);
  const picked = pickLang(typeof args.flags['lang'] === 'string' ? args.flags['lang'] : undefined);
  const lang: Lang = typeof picked === 'string' ? picked : 'vi';
  const usage = (text: string) => {
    process.stderr.write(`${text}\n\n${msg(lang, 'usage.check')}\n`);
    return 2;
  };
  if (typeof picked !== 'string') return usage(msg('vi', 'usage.badLang', { lang: picked.bad }) + '\n' + msg('en', 'usage.badLang', { lang: picked.bad }));
  if (args.flags['help']) {
    process.stdout.write(msg(lang, 'usage.check') + '\n');
    return 0;
  }
  if (args.unknown.length) return usage(msg(lang, 'usage.unknownOption', { option: args.unknown.join(' ') }));
  const [id, ...extra] = args.positional;
  if (!id) return usage(msg(lang, 'usage.missingId'));
  if (extra.length) return usage(msg(lang, 'usage.unknownOption', { option: extra.join(' ') }));

  const source = fsExerciseSource();
  const bundle = await source.load(id);
  if (!bundle) return usage(msg(lang, 'usage.unknownExercise', { id, known: (await source.ids()).join(', ') }));

  const dir = typeof args.flags['from'] === 'string' ? userPath(args.flags['from']) : join(REPO_ROOT, 'workbook', id);
  const files: Record<string, string> = {};
  for (const path of editablePaths(bundle.exercise)) {
    const full = join(dir, path);
    if (!existsSync(full)) {
      const file = relative(process.cwd(), full) || full;
      return usage(
        typeof args.flags['from'] === 'string'
          ? msg(lang, 'check.missingFrom', { file, dir: relative(process.cwd(), dir) || dir, expected: editablePaths(bundle.exercise).join(', ') })
          : msg(lang, 'check.missingFile', { file, id }),
      );
    }
    files[path] = readFileSync(full, 'utf8');
  }

  let report: Report;
  try {
    const strict = args.flags['strict'] === true;
    const reason = NOT_STRICT[id];
    if (strict && !confinementStatus().available) {
      process.stderr.write(msg(lang, 'check.strictUnavailable', { reason: confinementStatus().reason ?? '' }) + '\n');
      return 2;
    }
    if (strict && reason) process.stderr.write(msg(lang, 'check.notStrict', { id, reason }) + '\n');
    if (strict && !reason) {
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
  if (args.flags['json']) process.stdout.write(JSON.stringify(report, null, 2) + '\n');
  else process.stdout.write(formatReport(report, bundle.exercise, lang, { color: process.stdout.isTTY === true }) + '\n');
  return report.status === 'pass' ? 0 : 1;
}

main(process.argv.slice(2)).then(
  (code) => (process.exitCode = code),
  (err: unknown) => {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exitCode = 1;
  },
);
