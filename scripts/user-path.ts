// Resolves a path a user typed to an npm command against the folder they ran npm in, not the repository root.
import { resolve } from 'node:path';

/** Paths given on the command line are relative to where the user ran npm (INIT_CWD). */
export function userPath(p: string): string {
  return resolve(process.env['INIT_CWD'] ?? process.cwd(), p);
}
