// npm run grade-class -- --assignment FILE --submissions DIR [--out DIR] [--jobs N] [--shard K/N] [--json] [--lang vi|en] [--latest-wins] [--unsafe-no-sandbox]
// npm run grade-class -- merge --assignment FILE --out DIR [--json] [--lang vi|en] SHARD.json...
// Exit codes: 0 every submission graded (whatever the learners scored), 1 a submission was rejected,
// could not be graded or shares its learner with another file (a conflict to decide), 2 usage error (assignment file, submissions folder, options, no sandbox).
import { existsSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { killSandboxesOnSignals } from '../src/grading/index.ts';
import {
  classSummary,
  cm,
  createSubmissionSandbox,
  defaultJobs,
  defaultOutDir,
  exercisesPassed,
  gradeClass,
  gradebookRows,
  gradingFailed,
  inConflict,
  heldFromLms,
  lmsRows,
  LMS_FORMATS,
  loadClassContext,
  mergeShards,
  parseShard,
  toShardFile,
  type ClassContext,
  type ClassGradingIO,
  type ClassGrading,
  nodeClassIO,
  filesNotRead,
  extractSubmissionsZip,
  type NotRead,
  previousFolderName,
  feedbackFiles,
  strictClassIO,
  readAssignmentFile,
  renderReport,
  sandboxText,
  say,
  shownFile,
  toCsv,
  writeOutputs,
  type Lang,
  type ProgressEvent,
} from '../src/class-grading/index.ts';
import { userPath } from './user-path.ts';
import { runCli, type CliContext } from './run-cli.ts';

killSandboxesOnSignals();

const OPTIONS = {
  assignment: { type: 'string' },
  submissions: { type: 'string' },
  out: { type: 'string' },
  jobs: { type: 'string' },
  shard: { type: 'string' },
  json: { type: 'boolean' },
  'unsafe-no-sandbox': { type: 'boolean' },
  'latest-wins': { type: 'boolean' },
} as const;

runCli({
  usage: { vi: `${cm('vi', 'usage')}\n${cm('vi', 'usage.shards')}`, en: `${cm('en', 'usage')}\n${cm('en', 'usage.shards')}` },
  options: OPTIONS,
  main: gradeClassCommand,
});

async function gradeClassCommand({ values, positionals, lang, usageError: usage }: CliContext<typeof OPTIONS>): Promise<number> {
  const err = (text: string) => process.stderr.write(`${text}\n`);
  const flag = (name: 'assignment' | 'submissions' | 'out' | 'jobs' | 'shard') => values[name];
  if (positionals[0] === 'merge') return merge(positionals.slice(1), flag, lang, values.json === true, usage, err);
  if (positionals.length) return usage(cm(lang, 'usage.unknownOption', { option: positionals.join(' ') }));
  const shardArg = flag('shard');
  const shard = shardArg === undefined ? undefined : parseShard(shardArg);
  if (shardArg !== undefined && !shard) return usage(cm(lang, 'usage.badShard', { shard: shardArg }));

  const assignmentArg = flag('assignment');
  const submissionsArg = flag('submissions');
  if (!assignmentArg) return usage(cm(lang, 'usage.missingAssignment'));
  if (!submissionsArg) return usage(cm(lang, 'usage.missingSubmissions'));
  const jobsArg = flag('jobs');
  const jobsGiven = jobsArg === undefined ? undefined : Number(jobsArg);
  if (jobsGiven !== undefined && (!Number.isInteger(jobsGiven) || jobsGiven < 1)) return usage(cm(lang, 'usage.badJobs', { jobs: jobsArg ?? '' }));

  const read = readAssignmentFile(userPath(assignmentArg));
  if (!read.ok) return usage(say(lang, read.problem));
  const given = userPath(submissionsArg);
  let dir = given;
  let notRead: NotRead[] | undefined;
  if (/\.zip$/i.test(given) && existsSync(given) && statSync(given).isFile()) {
    // A zip as Moodle or Canvas download it: its submission files in a temporary folder, removed on exit.
    const extracted = await extractSubmissionsZip(given);
    if (!extracted.ok) return usage(say(lang, extracted.problem));
    dir = extracted.value.dir;
    notRead = extracted.value.notRead;
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  } else if (!existsSync(dir) || !statSync(dir).isDirectory()) return usage(cm(lang, 'usage.noDir', { dir }));
  const context = await loadClassContext(read.value);
  if (!context.ok) return usage(say(lang, context.problem));
  const ctx = context.value;

  const choice = createSubmissionSandbox({ unsafeNoSandbox: values['unsafe-no-sandbox'] === true });
  if (!choice.ok) {
    // Both languages: whoever reads this may not have picked --lang yet.
    err(`${sandboxText('vi', choice.refusal)}\n\n${sandboxText('en', choice.refusal)}`);
    return 2;
  }
  const jobs = jobsGiven ?? defaultJobs(choice.confined);
  // Confined: strict grading (the learner's code in a process of its own). Unsafe: one plain process.
  const io: ClassGradingIO & { dispose?: () => Promise<void> } = choice.confined ? strictClassIO(dir, choice.factory) : nodeClassIO(dir, choice.factory);
  const count = (await io.listSubmissions()).length;
  if (count === 0) return usage(cm(lang, 'usage.noSubmissions', { dir }));

  const tty = process.stderr.isTTY === true;
  const paint = (code: number, s: string) => (tty ? `\u001b[${code}m${s}\u001b[0m` : s);
  if (choice.confined) err(cm(lang, 'sandbox.confined', { mechanism: choice.mechanism }));
  else err(paint(31, sandboxText(lang, choice.warning)));

  const outArg = flag('out');
  const outDir = outArg ? userPath(outArg) : defaultOutDir(given.replace(/\.zip$/i, ''));
  if (!outArg) err(cm(lang, 'done.defaultOut', { dir: outDir }));

  err(cm(lang, 'progress.start', { count, title: ctx.assignment.title, jobs }));
  const onProgress = (e: ProgressEvent) => {
    if (e.kind === 'rejected') {
      err(paint(31, cm(lang, 'progress.rejected', { done: e.done, count: e.count, file: shownFile(e.rejected.file), reason: say(lang, e.rejected.reason) })));
    } else if (gradingFailed(e.result)) {
      const reason = e.result.exercises
        .map((x) => (x.status === 'grading-failed' ? x.message : ''))
        .filter(Boolean)
        .join('; ');
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

  const duplicates = values['latest-wins'] === true ? 'latest-wins' : 'conflict';
  const grading = await gradeClass(ctx, io, { jobs, lang, onProgress, duplicates, ...(shard ? { shard } : {}) }).finally(() => io.dispose?.());
  if (shard) {
    const name = `shard-${shard.index}-of-${shard.count}-${ctx.assignment.id}.json`;
    const written = await writeOutputs(outDir, { [name]: JSON.stringify(toShardFile(ctx.assignment.id, shard, grading)) });
    process.stdout.write(`${cm(lang, 'done.shard', { ...shard, graded: grading.results.length, file: written[name]! })}\n`);
    return grading.rejected.length > 0 || grading.results.some(gradingFailed) || grading.results.some(inConflict) ? 1 : 0;
  }
  return writeGradebook(ctx, grading, lang, outDir, values.json === true, err, notRead ?? (await filesNotRead(dir)));
}

/** The gradebook (CSV) and report (HTML) of a class, the summary line, and the exit code. */
async function writeGradebook(
  ctx: ClassContext,
  grading: ClassGrading,
  lang: Lang,
  outDir: string,
  json: boolean,
  err: (text: string) => void,
  notRead: NotRead[] = [],
): Promise<number> {
  const base = ctx.assignment.id;
  const now = new Date();
  const files = {
    [`gradebook-${base}.csv`]: toCsv(gradebookRows(ctx, grading.results, grading.rejected, lang)),
    [`report-${base}.html`]: renderReport({ ctx, results: grading.results, rejected: grading.rejected, lang, generatedAt: now, files: grading.files, notRead }),
    // The same grades in the import layouts of the schools' systems (docs/assignments.md).
    ...Object.fromEntries(LMS_FORMATS.map((f) => [`${f}-${base}.csv`, toCsv(lmsRows(f, ctx, grading.results))])),
    // What to hand back to each learner: their own results only, in their language.
    ...feedbackFiles(ctx, grading.results, lang),
  };
  const replaced = Object.keys(files).some((name) => existsSync(join(outDir, name)));
  const written = await writeOutputs(outDir, files, now);
  if (replaced) err(cm(lang, 'done.previous', { dir: join(outDir, previousFolderName(now)) }));
  for (const x of notRead) err(cm(lang, 'progress.notRead', { file: shownFile(x.file), reason: say(lang, x.reason) }));
  const lms = LMS_FORMATS.map((f) => written[`${f}-${base}.csv`]!).join(', ');
  const outputs = { csv: written[`gradebook-${base}.csv`]!, html: written[`report-${base}.html`]! };
  const errored = grading.results.filter(gradingFailed).length;
  const summary = cm(lang, 'done.summary', {
    graded: grading.results.length - errored,
    rejected: grading.rejected.length,
    errored,
    seconds: (grading.durationMs / 1000).toFixed(1),
  });
  const held = heldFromLms(grading.results).map((r) => r.learner.email);
  const wrote = [
    cm(lang, 'done.wrote', outputs),
    cm(lang, 'done.wroteLms', { files: lms }),
    ...(held.length ? [cm(lang, 'done.heldFromLms', { emails: [...new Set(held)].join(', ') })] : []),
    cm(lang, 'done.wroteFeedback', { dir: join(outDir, 'feedback') }),
  ].join('\n');
  if (json) {
    err(`${summary}\n${wrote}`);
    process.stdout.write(`${JSON.stringify(classSummary(ctx, grading, lang, outputs), null, 2)}\n`);
  } else process.stdout.write(`${summary}\n${wrote}\n`);
  const conflicts = grading.results.filter(inConflict).length;
  return grading.rejected.length > 0 || errored > 0 || conflicts > 0 ? 1 : 0;
}

/** `grade-class merge`: the shards' results joined into one gradebook and report. */
async function merge(
  shardArgs: string[],
  flag: (name: 'assignment' | 'out') => string | undefined,
  lang: Lang,
  json: boolean,
  usage: (text: string) => number,
  err: (text: string) => void,
): Promise<number> {
  const assignmentArg = flag('assignment');
  if (!assignmentArg) return usage(cm(lang, 'usage.missingAssignment'));
  if (shardArgs.length === 0) return usage(cm(lang, 'usage.noShards'));
  const read = readAssignmentFile(userPath(assignmentArg));
  if (!read.ok) return usage(say(lang, read.problem));
  const context = await loadClassContext(read.value);
  if (!context.ok) return usage(say(lang, context.problem));
  const parts: Array<{ file: string; data: unknown }> = [];
  for (const arg of shardArgs) {
    const file = userPath(arg);
    try {
      parts.push({ file, data: JSON.parse(readFileSync(file, 'utf8')) as unknown });
    } catch (error) {
      return usage(cm(lang, 'usage.badShardFile', { file, detail: (error as Error).message.split('\n', 1)[0] ?? '' }));
    }
  }
  const merged = mergeShards(context.value.assignment.id, parts);
  if (!merged.ok) {
    const { kind, ...params } = merged.problem;
    return usage(cm(lang, `merge.${kind}`, params as Record<string, string | number>));
  }
  const outArg = flag('out');
  const outDir = outArg ? userPath(outArg) : process.cwd();
  return writeGradebook(context.value, merged.grading, lang, outDir, json, err);
}
