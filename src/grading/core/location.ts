// Where an error points in the learner's files: a line and column from a stack frame, an esbuild
// syntax error or tsc's output, with paths outside the exercise's src/ files left out.
import type { Location } from './types.ts';

const ESBUILD = /(?:^|\s)(?:file:\/\/)?(\/?[^\s:()]*?src\/[^\s:()]+):(\d+):(\d+):\s*ERROR:\s*(.+)/m;
const FRAME = /\(?(?:file:\/\/)?(\/?[^\s()]*?src\/[^\s():]+):(\d+):(\d+)\)?/;

export interface ErrorLike {
  message?: string;
  stack?: string;
}

/** `…/src/retry.ts` → `retry.ts` when it is one of the learner's files. */
function learnerFile(path: string, files: readonly string[]): string | undefined {
  const i = path.lastIndexOf('src/');
  if (i < 0) return undefined;
  const rel = path.slice(i + 4);
  return files.includes(rel) ? rel : undefined;
}

function firstLine(text: string): string {
  return (text.split('\n').find((l) => l.trim() !== '') ?? '').trim();
}

/**
 * Where in the learner's files an error that stopped the suite comes from: an esbuild
 * transform error (`src/retry.ts:3:9: ERROR: …`) or the first stack frame in a learner file.
 */
export function locateError(error: ErrorLike, files: readonly string[]): Location | undefined {
  const text = `${error.message ?? ''}\n${error.stack ?? ''}`;
  const esb = ESBUILD.exec(text);
  if (esb) {
    const file = learnerFile(esb[1]!, files);
    if (file) return { file, line: Number(esb[2]), column: Number(esb[3]), message: esb[4]!.trim() };
  }
  for (const line of (error.stack ?? '').split('\n').slice(1)) {
    const m = FRAME.exec(line);
    if (!m) continue;
    const file = learnerFile(m[1]!, files);
    if (file) {
      return { file, line: Number(m[2]), column: Number(m[3]), message: firstLine(error.message ?? '') };
    }
  }
  return undefined;
}

const TSC = /^(.+?)\((\d+),(\d+)\): error (TS\d+): (.*)$/;

/** `tsc --pretty false` output → type errors in the learner's files only. */
export function parseTscOutput(output: string, files: readonly string[]): Location[] {
  const found: Location[] = [];
  let last: Location | undefined;
  for (const raw of output.split('\n')) {
    const line = raw.replace(/\r$/, '');
    const m = TSC.exec(line);
    if (m) {
      const file = learnerFile(m[1]!.replace(/\\/g, '/'), files);
      last = file ? { file, line: Number(m[2]), column: Number(m[3]), message: `${m[4]}: ${m[5]}` } : undefined;
      if (last) found.push(last);
    } else if (last && /^\s+\S/.test(line)) {
      last.message += '\n' + line.trim();
    } else {
      last = undefined;
    }
  }
  return found;
}
