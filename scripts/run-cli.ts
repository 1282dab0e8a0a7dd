/**
 * The one way a script of this repository reads its command line: node:util's parseArgs, plus what
 * every command shares. `--lang vi|en` (else COURSE_LANG, else Vietnamese, the course's first
 * language) and `--help` are added to every command; an unknown option, a missing value or a bad
 * language exits 2 with the message and the usage in the chosen language; `main` returns the exit
 * code, and anything it throws exits 1 with the error. Model: a script header as contract (Exercism's
 * test runner): the usage text is the command's documentation.
 */
import { parseArgs, type ParseArgsOptionsConfig } from 'node:util';
import { isLang, type Lang } from '../src/i18n/langs.ts';
import { msg } from './cli-messages.ts';

const SHARED = { lang: { type: 'string' }, help: { type: 'boolean', short: 'h' } } as const satisfies ParseArgsOptionsConfig;

/** What a command's options parse to: strings, booleans, and lists for `multiple: true`. */
type Values<O extends ParseArgsOptionsConfig> = {
  [K in keyof O]?: O[K] extends { multiple: true }
    ? O[K]['type'] extends 'boolean'
      ? boolean[]
      : string[]
    : O[K]['type'] extends 'boolean'
      ? boolean
      : string;
};

export interface CliContext<O extends ParseArgsOptionsConfig> {
  values: Values<O>;
  positionals: string[];
  lang: Lang;
  /** Writes `message` and the usage to stderr and gives the usage-error exit code (2). */
  usageError(message: string): number;
}

export interface CliSpec<O extends ParseArgsOptionsConfig> {
  /** The usage text in both languages: printed by --help and under every usage error. */
  usage: Record<Lang, string>;
  /** The command's own options (`--lang` and `--help` are added). */
  options: O;
  /** How many positional arguments the command takes at most (default: any). */
  maxPositionals?: number;
  main(ctx: CliContext<O>): number | Promise<number>;
}

/** The language before parsing: --lang (as `--lang x` or `--lang=x`), else COURSE_LANG, else vi. */
export function chooseLang(argv: readonly string[], env: NodeJS.ProcessEnv = process.env): { lang: Lang; bad?: string } {
  const i = argv.findIndex((a) => a === '--lang' || a.startsWith('--lang='));
  const asked = i < 0 ? env['COURSE_LANG'] || undefined : argv[i]!.includes('=') ? argv[i]!.slice('--lang='.length) : argv[i + 1];
  if (asked === undefined) return { lang: 'vi' };
  return isLang(asked) ? { lang: asked } : { lang: 'vi', bad: asked };
}

/** The parsed command line, or the exit code when it was --help or a usage error (already printed). */
export function parseCli<O extends ParseArgsOptionsConfig>(
  spec: Omit<CliSpec<O>, 'main'>,
  argv: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): CliContext<O> | { exit: number } {
  const chosen = chooseLang(argv, env);
  const { lang } = chosen;
  const usageError = (message: string) => {
    process.stderr.write(`${message}\n\n${spec.usage[lang]}\n`);
    return 2;
  };
  if (chosen.bad !== undefined) {
    // Which language the user wanted is unknown: say it in both.
    return {
      exit: usageError(`${msg('vi', 'usage.badLang', { lang: chosen.bad })}\n${msg('en', 'usage.badLang', { lang: chosen.bad })}`),
    };
  }
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: [...argv], options: { ...spec.options, ...SHARED }, allowPositionals: true, strict: true });
  } catch (err) {
    const code = (err as { code?: string }).code;
    const option = /'([^']+)'/.exec((err as Error).message)?.[1] ?? '';
    if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') return { exit: usageError(msg(lang, 'usage.needsValue', { option: option.split(' ')[0]! })) };
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return { exit: usageError(msg(lang, 'usage.unknownOption', { option })) };
    throw err;
  }
  if (parsed.values['help']) {
    process.stdout.write(`${spec.usage[lang]}\n`);
    return { exit: 0 };
  }
  if (spec.maxPositionals !== undefined && parsed.positionals.length > spec.maxPositionals) {
    return { exit: usageError(msg(lang, 'usage.unexpected', { arg: parsed.positionals[spec.maxPositionals]! })) };
  }
  return { values: parsed.values as Values<O>, positionals: parsed.positionals, lang, usageError };
}

/** Parses `argv` for `spec` and runs it; resolves to the exit code (runCli sets it on the process). */
export async function runCliWith<O extends ParseArgsOptionsConfig>(
  spec: CliSpec<O>,
  argv: readonly string[],
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  const parsed = parseCli(spec, argv, env);
  return 'exit' in parsed ? parsed.exit : spec.main(parsed);
}

/**
 * For scripts that run top to bottom (benchmarks): the parsed command line, or the process ends here
 * with --help's 0 or a usage error's 2.
 */
export function readCli<O extends ParseArgsOptionsConfig>(spec: Omit<CliSpec<O>, 'main'>): CliContext<O> {
  const parsed = parseCli(spec, process.argv.slice(2));
  if ('exit' in parsed) process.exit(parsed.exit);
  return parsed;
}

/** A whole number of at least `min` from an option, or the usage error's exit. */
export function wholeNumber(ctx: CliContext<ParseArgsOptionsConfig>, option: string, fallback: number, min = 1): number {
  const raw = ctx.values[option];
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (typeof raw === 'string' && /^\d+$/.test(raw) && n >= min) return n;
  process.exit(ctx.usageError(msg(ctx.lang, 'usage.notNumber', { option: `--${option}`, min: String(min), value: String(raw) })));
}

/** Runs a command on this process's arguments and sets its exit code; a thrown error exits 1. */
export function runCli<O extends ParseArgsOptionsConfig>(spec: CliSpec<O>): void {
  runCliWith(spec, process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (err: unknown) => {
      process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
      process.exitCode = 1;
    },
  );
}
