import { resolve } from 'node:path';

export interface Parsed {
  positional: string[];
  flags: Record<string, string | true>;
  unknown: string[];
}

/** Minimal flag parser: `--name value` for `valued`, `--name` for booleans. */
export function parseArgs(argv: string[], valued: string[], booleans: string[]): Parsed {
  const out: Parsed = { positional: [], flags: {}, unknown: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (!arg.startsWith('--')) out.positional.push(arg);
    else {
      const [name, inline] = arg.slice(2).split('=', 2) as [string, string | undefined];
      if (valued.includes(name)) {
        const value = inline ?? argv[++i];
        if (value === undefined) out.unknown.push(arg);
        else out.flags[name] = value;
      } else if (booleans.includes(name)) out.flags[name] = true;
      else out.unknown.push(arg);
    }
  }
  return out;
}

/** Paths given on the command line are relative to where the user ran npm (INIT_CWD). */
export function userPath(p: string): string {
  return resolve(process.env['INIT_CWD'] ?? process.cwd(), p);
}
