// npm run grade-class -- --assignment FILE --submissions DIR [--out DIR] [--jobs N] [--json] [--lang vi|en] [--latest-wins] [--unsafe-no-sandbox]
// Exit codes: 0 every submission graded (whatever the learners scored), 1 a submission was rejected,
// could not be graded or shares its learner with another file (a conflict to decide), 2 usage error (assignment file, submissions folder, options, no sandbox).
import { existsSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { killSandboxesOnSignals } from '../src/grading/index.ts';
import {
  classSummary,
  cm,
  createSubmissionSandbox,
  defaultOutDir,
  exercisesPassed,
  gradeClass,
  gradebookRows,
  gradingFailed,
  inConflict,
  loadClassContext,
  nodeClassIO,
  readAssignmentFile,
  renderReport,
  sandboxText,
  say,
  toCsv,
  writeOutputs,
  type Lang,
  type ProgressEvent,
} from '../src/class-grading/index.ts';
import { parseArgs, userPath } from './cli-args.ts';
import { pickLang } from './cli-messages.ts';

killSandboxesOnSignals();

async function main(argv: string[]): Promise<number> {
  const args = parseArgs(argv, ['assignment', 'submissions', 'out', 'jobs', 'lang'], ['json', 'help', 'unsafe-no-sandbox', 'latest-wins']);
  const picked = pickLang(typeof args.flags['lang'] === 'string' ? args.flags['lang'] : undefined);
  const lang: Lang = typeof picked === 'string' ? picked : 'vi';
  const err = (text: string) => process.stderr.write(`${text}\n`);
  const usage = (text: string) => {
    err(`${text}\n\n${cm(lang, 'usage')}`);
    return 2;
  };
  if (typeof picked !== 'string') return usage(`${cm('vi', 'usage.badLang', { lang: picked.bad })}\n${cm('en', 'usage.badLang', { lang: picked.bad })}`);
  if (args.flags['help']) {
    process.stdout.write(`${cm(lang, 'usage')}\n`);
    return 0;
  }
  const stray = [...args.unknown, ...args.positional];
  if (stray.length) return usage(cm(lang, 'usage.unknownOption', { option: stray.join(' ') }));
  const flag = (name: string) => (typeof args.flags[name] === 'string' ? (args.flags[name] as string) : undefined);

  const assignmentArg = flag('assignment');
  const submissionsArg = flag('submissions');
  if (!assignmentArg) return usage(cm(lang, 'usage.missingAssignment'));
  if (!submissionsArg) return usage(cm(lang, 'usage.missingSubmissions'));
  const jobsArg = flag('jobs');
  const jobs = jobsArg === undefined ? Math.max(1, availableParallelism() - 1) : Number(jobsArg);
  if (!Number.isInteger(jobs) || jobs < 1) return usage(cm(lang, 'usage.badJobs', { jobs: jobsArg ?? '' }));

  const read = readAssignmentFile(userPath(assignmentArg));
  if (!read.ok) return usage(say(lang, read.problem));
  const dir = userPath(submissionsArg);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return usage(cm(lang, 'usage.noDir', { dir }));
  const context = await loadClassContext(read.value);
  if (!context.ok) return usage(say(lang, context.problem));
  const ctx = context.value;

  const choice = createSubmissionSandbox({ unsafeNoSandbox: args.flags['unsafe-no-sandbox'] === true });
  if (!choice.ok) {
    // Both languages: whoever reads this may not have picked --lang yet.
    err(`${sandboxText('vi', choice.refusal)}\n\n${sandboxText('en', choice.refusal)}`);
    return 2;
  }
  const io = nodeClassIO(dir, choice.factory);
  const count = (await io.listSubmissions()).length;
  if (count === 0) return usage(cm(lang, 'usage.noSubmissions', { dir }));

  const tty = process.stderr.isTTY === true;
  const paint = (code: number, s: string) => (tty ? `\u001b[${code}m${s}\u001b[0m` : s);
  if (choice.confined) err(cm(lang, 'sandbox.confined', { mechanism: choice.mechanism }));
  else err(paint(31, sandboxText(lang, choice.warning)));

  const outArg = flag('out');
  const outDir = outArg ? userPath(outArg) : defaultOutDir(dir);
  if (!outArg) err(cm(lang, 'done.defaultOut', { dir: outDir }));

  err(cm(lang, 'progress.start', { count, title: ctx.assignment.title, jobs }));
  const onProgress = (e: ProgressEvent) => {
    if (e.kind === 'rejected') {
      err(paint(31, cm(lang, 'progress.rejected', { done: e.done, count: e.count, file: e.rejected.file, reason: say(lang, e.rejected.reason) })));
    } else if (gradingFailed(e.result)) {
      const reason = e.result.exercises.map((x) => (x.status === 'grading-failed' ? x.message : '')).filter(Boolean).join('; ');
      err(paint(31, cm(lang, 'progress.errored', { done: e.done, count: e.count, email: e.result.learner.email, reason })));
    } else {
      const line = cm(lang, 'progress.graded', {
        done: e.done,
        count: e.count,
        email: e.result.learner.email,
        passed: exercisesPassed(e.result),
        exercises: ctx.assignment.exercises.length,
        seconds: (e.result.durationMs / 1000).toFixed(1),
      });
      err(line);
    }
  };

  const duplicates = args.flags['latest-wins'] === true ? 'latest-wins' : 'conflict';
  const grading = await gradeClass(ctx, io, { jobs, lang, onProgress, duplicates });
  const base = ctx.assignment.id;
  const files = {
    [`gradebook-${base}.csv`]: toCsv(gradebookRows(ctx, grading.results, grading.rejected, lang)),
    [`report-${base}.html`]: renderReport({ ctx, results: grading.results, rejected: grading.rejected, lang, generatedAt: new Date(), files: grading.files }),
  };
  const written = await writeOutputs(outDir, files);
  const outputs = { csv: written[`gradebook-${base}.csv`]!, html: written[`report-${base}.html`]! };
  const errored = grading.results.filter(gradingFailed).length;
  const summary = cm(lang, 'done.summary', {
    graded: grading.results.length - errored,
    rejected: grading.rejected.length,
    errored,
    seconds: (grading.durationMs / 1000).toFixed(1),
  });
  const wrote = cm(lang, 'done.wrote', outputs);
  if (args.flags['json']) {
    err(`${summary}\n${wrote}`);
    process.stdout.write(`${JSON.stringify(classSummary(ctx, grading, lang, outputs), null, 2)}\n`);
  } else process.stdout.write(`${summary}\n${wrote}\n`);
  const conflicts = grading.results.filter(inConflict).length;
  return grading.rejected.length > 0 || errored > 0 || conflicts > 0 ? 1 : 0;
}

main(process.argv.slice(2)).then(
  (code) => (process.exitCode = code),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  },
);
