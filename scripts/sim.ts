/**
 * Run the course's simulations from the command line, so every figure in the lessons can be reproduced.
 *   npm run sim -- list
 *   npm run sim -- <name> [--seed N] [--set key=value ...] [--json] [--charts] [--lang vi|en]
 * Exit codes: 0 ok, 2 usage error (unknown simulation, parameter, flag or value).
 */
import { DEFAULT_SEED, SIMS, getSim, parseSimParams, type AnySim } from '../src/sims/index.ts';
import { formatSummary, formatTable } from '../src/sims/text-table.ts';
import { isLang, type Lang } from '../src/i18n/langs.ts';

/** Like every command of the course: COURSE_LANG, else Vietnamese (the course's first language); --lang wins. */
const defaultLang = (): Lang => (isLang(process.env['COURSE_LANG']) ? process.env['COURSE_LANG'] : 'vi');


class UsageError extends Error {}

const USAGE = `usage:
  npm run sim -- list
  npm run sim -- <name> [--seed N] [--set key=value ...] [--json] [--charts] [--lang vi|en]`;

interface Options {
  name: string;
  seed: number;
  sets: string[];
  json: boolean;
  charts: boolean;
  lang: Lang;
}

function parseArgs(argv: string[]): Options | 'list' | 'help' {
  if (argv.length === 0) throw new UsageError('missing simulation name');
  if (argv[0] === 'list') {
    if (argv.length > 1) throw new UsageError(`unexpected argument "${argv[1]}"`);
    return 'list';
  }
  if (argv[0] === '--help' || argv[0] === '-h' || argv[0] === 'help') return 'help';
  const opts: Options = { name: argv[0]!, seed: DEFAULT_SEED, sets: [], json: false, charts: false, lang: defaultLang() };
  if (opts.name.startsWith('-')) throw new UsageError(`expected a simulation name before "${opts.name}"`);
  const value = (i: number, flag: string): string => {
    const v = argv[i];
    if (v === undefined) throw new UsageError(`${flag} needs a value`);
    return v;
  };
  for (let i = 1; i < argv.length; i++) {
    const arg = argv[i]!;
    const [flag, inline] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const take = (): string => inline ?? value(++i, flag);
    switch (flag) {
      case '--seed': {
        const raw = take();
        const n = Number(raw);
        if (!/^\d+$/.test(raw) || n > 0xffffffff) throw new UsageError(`--seed must be an integer from 0 to ${0xffffffff} (got "${raw}")`);
        opts.seed = n;
        break;
      }
      case '--set':
        opts.sets.push(take());
        break;
      case '--json':
        opts.json = true;
        break;
      case '--charts':
        opts.charts = true;
        break;
      case '--lang': {
        const l = take();
        if (l !== 'vi' && l !== 'en') throw new UsageError(`--lang must be vi or en (got "${l}")`);
        opts.lang = l;
        break;
      }
      default:
        throw new UsageError(`unknown argument "${arg}"`);
    }
  }
  return opts;
}

function list(): string {
  return SIMS.map((s) => {
    const params = s.params.map((p) => `    ${p.key}=${String(p.default)}  (${p.kind}${p.kind === 'int' || p.kind === 'number' ? ` ${p.min}..${p.max}` : p.kind === 'select' ? `: ${p.options.map((o) => o.value).join('|')}` : ''})  ${p.label.en}`);
    return [`${s.name}  ${s.title.en}`, ...params].join('\n');
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

function main(argv: string[]): number {
  let opts: ReturnType<typeof parseArgs>;
  try {
    opts = parseArgs(argv);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    process.stderr.write(`sim: ${e.message}\n${USAGE}\n`);
    return 2;
  }
  if (opts === 'help') {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (opts === 'list') {
    process.stdout.write(`${list()}\n`);
    return 0;
  }
  const sim = getSim(opts.name);
  if (!sim) {
    process.stderr.write(`sim: unknown simulation "${opts.name}". Available: ${SIMS.map((s) => s.name).join(', ')}\n`);
    return 2;
  }
  const v = parseSimParams(sim, opts.sets);
  if (!v.ok) {
    process.stderr.write(v.errors.map((e) => `sim: ${e[opts.lang]}\n`).join(''));
    return 2;
  }
  if (opts.json) {
    const r = sim.run(v.params, opts.seed);
    const out = {
      sim: sim.name,
      seed: opts.seed,
      params: v.params,
      columns: r.columns,
      rows: r.rows,
      summary: r.summary,
      ...(r.data === undefined ? {} : { data: r.data }),
      ...(opts.charts ? { charts: r.charts } : {}),
    };
    process.stdout.write(`${JSON.stringify(out)}\n`);
    return 0;
  }
  process.stdout.write(`${human(sim, opts.seed, v.params, opts.lang)}\n`);
  return 0;
}

process.exitCode = main(process.argv.slice(2));
