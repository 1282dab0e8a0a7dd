/**
 * Run the course's simulations from the command line, so every figure in the lessons can be reproduced.
 *   npm run sim -- list
 *   npm run sim -- <name> [--seed N] [--set key=value ...] [--policy DIR ...] [--json] [--charts] [--lang vi|en]
 * `--policy DIR` runs a learner's exercise folder as one more policy (sim-policy.ts), in a worker thread
 * with a time limit (20 s, SIM_TIME_LIMIT_MS).
 * Exit codes: 0 ok; 1 the learner's code did not load, threw, lacks an export or ran out of time;
 * 2 usage error (unknown simulation, parameter, flag, value or folder), in the chosen language.
 */
import type { Lang } from '../src/i18n/langs.ts';
import { DEFAULT_SEED, SIMS, getSim, parseSimParams, type AnySim, type ParamValues, type SimResult } from '../src/sims/index.ts';
import { formatSummary, formatTable } from '../src/sims/text-table.ts';
import { msg } from './cli-messages.ts';
import { runCli } from './run-cli.ts';
import {
  DEFAULT_TIME_LIMIT_MS,
  exerciseFiles,
  resolvePolicyFolder,
  runInWorker,
  runnableExercises,
  timeLimitMs,
  WORKER_HEAP_MB,
  type PolicyFolder,
} from './sim-policy.ts';

function list(lang: Lang): string {
  const exercises = exerciseFiles();
  return SIMS.map((s) => {
    const params = s.params.map(
      (p) =>
        `    ${p.key}=${String(p.default)}  (${p.kind}${p.kind === 'int' || p.kind === 'number' ? ` ${p.min}..${p.max}` : p.kind === 'select' ? `: ${p.options.map((o) => o.value).join('|')}` : ''})  ${p.label[lang]}`,
    );
    const can = runnableExercises(s, exercises);
    return [`${s.name}  ${s.title[lang]}`, ...params, ...(can ? [`    ${msg(lang, 'sim.runsCode', { can })}`] : [])].join('\n');
  }).join('\n\n');
}

function human(sim: AnySim, seed: number, params: ParamValues, r: SimResult, policies: readonly PolicyFolder[], lang: Lang): string {
  const changed = sim.params.filter((p) => params[p.key] !== p.default).map((p) => `${p.key}=${String(params[p.key])}`);
  const learner = (r.learner ?? []).map((o) => {
    const folder = policies.find((p) => p.exercise === o.exercise)!.folder;
    return o.error
      ? `${o.policy} (${folder}): ${msg(lang, 'sim.didNotRun')}\n  ${o.error[lang]}`
      : `${o.policy} (${folder}): ${o.label[lang]}\n  ${o.comparison?.[lang] ?? ''}`.trimEnd();
  });
  return [
    `${sim.title[lang]}  (${sim.name}, seed ${seed}${changed.length ? `, ${changed.join(' ')}` : ''})`,
    '',
    formatTable(r, lang),
    ...(r.summary.length ? ['', formatSummary(r.summary, lang)] : []),
    ...(learner.length ? ['', ...learner] : []),
  ].join('\n');
}

const usage = (lang: Lang) => msg(lang, 'usage.sim', { limit: DEFAULT_TIME_LIMIT_MS / 1000 });

runCli({
  usage: { vi: usage('vi'), en: usage('en') },
  options: {
    seed: { type: 'string' },
    set: { type: 'string', multiple: true },
    policy: { type: 'string', multiple: true },
    json: { type: 'boolean' },
    charts: { type: 'boolean' },
  },
  maxPositionals: 1,
  async main({ values, positionals, lang, usageError }) {
    const say = (key: 'sim.missingName' | 'sim.unknownSim' | 'sim.badSeed', vars: Record<string, string | number> = {}) => `sim: ${msg(lang, key, vars)}`;
    const [name] = positionals;
    if (!name) return usageError(say('sim.missingName'));
    if (name === 'list') {
      process.stdout.write(`${list(lang)}\n`);
      return 0;
    }
    const sim = getSim(name);
    if (!sim) return usageError(say('sim.unknownSim', { name, known: SIMS.map((s) => s.name).join(', ') }));
    const rawSeed = values.seed ?? String(DEFAULT_SEED);
    const seed = Number(rawSeed);
    if (!/^\d+$/.test(rawSeed) || seed > 0xffffffff) return usageError(say('sim.badSeed', { max: 0xffffffff, seed: rawSeed }));
    const v = parseSimParams(sim, values.set ?? []);
    if (!v.ok) {
      process.stderr.write(v.errors.map((e) => `sim: ${e[lang]}\n`).join(''));
      return 2;
    }

    // The learner's folders: each must hold an exercise this simulation runs, one folder per exercise.
    const policies: PolicyFolder[] = [];
    const exercises = values.policy?.length ? exerciseFiles() : [];
    for (const folder of values.policy ?? []) {
      const found = resolvePolicyFolder(sim, folder, lang, exercises);
      if (!found.ok) return usageError(`sim: ${found.message}`);
      const twin = policies.find((p) => p.exercise === found.policy.exercise);
      if (twin) return usageError(`sim: ${msg(lang, 'sim.policyTwice', { exercise: twin.exercise, folders: `${twin.folder}, ${folder}` })}`);
      policies.push(found.policy);
    }
    const limit = timeLimitMs();
    if (policies.length && limit === undefined) return usageError(`sim: ${msg(lang, 'sim.badTimeLimit', { value: process.env['SIM_TIME_LIMIT_MS'] ?? '' })}`);

    let r: SimResult;
    if (policies.length === 0) r = sim.run(v.params, seed);
    else {
      const folders = policies.map((p) => p.folder).join(', ');
      const outcome = await runInWorker(
        { sim: sim.name, params: v.params, seed, policies: policies.map(({ exercise, files }) => ({ exercise, files })) },
        limit!,
      );
      const fail = (text: string) => {
        process.stderr.write(`sim: ${text}\n`);
        return 1;
      };
      if (outcome.kind === 'timeout') return fail(msg(lang, 'sim.policyTimeout', { folders, seconds: limit! / 1000 }));
      if (outcome.kind === 'memory') return fail(msg(lang, 'sim.policyMemory', { folders, mb: WORKER_HEAP_MB }));
      if (outcome.kind === 'crash') return fail(msg(lang, 'sim.policyCrash', { folders, error: outcome.error }));
      if (outcome.kind === 'load') return fail(msg(lang, 'sim.policyLoad', { file: outcome.file, error: outcome.error }));
      r = outcome.result;
    }
    // A learner policy that threw or lacks an export did not run: the table is printed without it, and the command fails.
    const code = r.learner?.some((o) => o.error) ? 1 : 0;

    if (values.json) {
      const out = {
        sim: sim.name,
        seed,
        params: v.params,
        columns: r.columns,
        rows: r.rows,
        summary: r.summary,
        ...(r.data === undefined ? {} : { data: r.data }),
        // Not graded here: whether the code passes its exercise is unknown (npm run check tells).
        ...(r.learner ? { learner: r.learner.map((o) => ({ ...o, folder: policies.find((p) => p.exercise === o.exercise)!.folder, notPassing: null })) } : {}),
        ...(values.charts ? { charts: r.charts } : {}),
      };
      process.stdout.write(`${JSON.stringify(out)}\n`);
      return code;
    }
    process.stdout.write(`${human(sim, seed, v.params, r, policies, lang)}\n`);
    return code;
  },
});
