/**
 * Run the course's simulations from the command line, so every figure in the lessons can be reproduced.
 *   npm run sim -- list
 *   npm run sim -- <name> [--seed N] [--set key=value ...] [--json] [--charts] [--lang vi|en]
 * Exit codes: 0 ok, 2 usage error (unknown simulation, parameter, flag or value), in the chosen language.
 */
import type { Lang } from '../src/i18n/langs.ts';
import { DEFAULT_SEED, SIMS, getSim, parseSimParams, type AnySim } from '../src/sims/index.ts';
import { formatSummary, formatTable } from '../src/sims/text-table.ts';
import { msg } from './cli-messages.ts';
import { runCli } from './run-cli.ts';

function list(lang: Lang): string {
  return SIMS.map((s) => {
    const params = s.params.map(
      (p) =>
        `    ${p.key}=${String(p.default)}  (${p.kind}${p.kind === 'int' || p.kind === 'number' ? ` ${p.min}..${p.max}` : p.kind === 'select' ? `: ${p.options.map((o) => o.value).join('|')}` : ''})  ${p.label[lang]}`,
    );
    return [`${s.name}  ${s.title[lang]}`, ...params].join('\n');
  }).join('\n\n');
}

function human(sim: AnySim, seed: number, params: Record<string, unknown>, lang: Lang): string {
  const r = sim.run(params as never, seed);
  const changed = sim.params.filter((p) => params[p.key] !== p.default).map((p) => `${p.key}=${String(params[p.key])}`);
  return [
    `${sim.title[lang]}  (${sim.name}, seed ${seed}${changed.length ? `, ${changed.join(' ')}` : ''})`,
    '',
    formatTable(r, lang),
    ...(r.summary.length ? ['', formatSummary(r.summary, lang)] : []),
  ].join('\n');
}

runCli({
  usage: { vi: msg('vi', 'usage.sim'), en: msg('en', 'usage.sim') },
  options: { seed: { type: 'string' }, set: { type: 'string', multiple: true }, json: { type: 'boolean' }, charts: { type: 'boolean' } },
  maxPositionals: 1,
  main({ values, positionals, lang, usageError }) {
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
    if (values.json) {
      const r = sim.run(v.params, seed);
      const out = {
        sim: sim.name,
        seed,
        params: v.params,
        columns: r.columns,
        rows: r.rows,
        summary: r.summary,
        ...(r.data === undefined ? {} : { data: r.data }),
        ...(values.charts ? { charts: r.charts } : {}),
      };
      process.stdout.write(`${JSON.stringify(out)}\n`);
      return 0;
    }
    process.stdout.write(`${human(sim, seed, v.params, lang)}\n`);
    return 0;
  },
});
