/**
 * The learner's TypeScript made plain JavaScript in the grader, before strict grading mounts it:
 * Node's own type stripper (the one the learner's process would run), loaded once here instead of
 * once in every learner's process, where loading it would cost each process a start-up of its own (a
 * grade of deadline-middleware starts two such processes; `npm run bench:grade-class` measures grades). Only types are erased, each replaced by spaces, so every line and
 * column stays where the learner wrote it (stack traces need no source map). A file that needs more
 * than erasing (an enum, a namespace, parameter properties) or does not parse is left as it is: the
 * learner's process compiles it itself (--experimental-transform-types) and reports its errors.
 *
 * Parsing untrusted code here is safe: nothing of it runs in the grader. But the stripper is a
 * WebAssembly module shared by the whole process, and a hostile file can break it (a hundred thousand
 * nested parentheses overflow its stack; every later call then fails with "memory access out of
 * bounds"). Its output is never trusted after such a fault: from the first error that is not a verdict
 * on the file's syntax, the grader strips nothing more, and every later learner's process compiles
 * its own files (slower, graded the same).
 */
import * as nodeModule from 'node:module';

/** Where the learner's process finds the list of files made plain (see learner-host.mjs). */
export const PLAIN_LIST = 'strict/plain-js.json';

export type Strip = (code: string, options: { mode: 'strip' }) => string;

/** How the stripper says a file needs more than erasing, or does not parse. */
const SYNTAX_VERDICTS: unknown[] = ['ERR_UNSUPPORTED_TYPESCRIPT_SYNTAX', 'ERR_INVALID_TYPESCRIPT_SYNTAX'];

/** Node's stripper: node:module's stripTypeScriptTypes, in the Node the lockfile installs. */
function nodeStripper(): Strip {
  const fn: Strip = nodeModule.stripTypeScriptTypes;
  // Node warns once that the function is experimental; on a grader's terminal that reads as a fault.
  const emitWarning = process.emitWarning;
  process.emitWarning = () => undefined;
  try {
    fn('', { mode: 'strip' });
  } catch {
    // the warning was the point
  } finally {
    process.emitWarning = emitWarning;
  }
  return fn;
}

export type LearnerTypeStripper = (files: Record<string, string>) => { files: Record<string, string>; plain: string[] };

/**
 * A stripper for many grades: `files` (path -> text) with each `.ts` file's types erased where that
 * is all it needs; `plain` lists those files, which the learner's process then loads as JavaScript.
 * `strip` is Node's (loaded on first use); tests pass their own.
 */
export function createTypeStripper(strip: () => Strip = nodeStripper): LearnerTypeStripper {
  /** The stripper once loaded (once per grader); null after it failed (see above). */
  let fn: Strip | null | undefined;
  return (files) => {
    if (fn === undefined) fn = strip();
    const out: Record<string, string> = { ...files };
    const plain: string[] = [];
    for (const [path, text] of Object.entries(files)) {
      if (!fn || !path.endsWith('.ts')) continue;
      try {
        out[path] = fn(text, { mode: 'strip' });
        plain.push(path);
      } catch (error) {
        // Syntax it does not erase, or a syntax error: the learner's process decides.
        if (SYNTAX_VERDICTS.includes((error as { code?: unknown }).code)) continue;
        fn = null; // the stripper itself failed (see above): never again for this grader
      }
    }
    return { files: out, plain };
  };
}

/** The grader's one stripper (Node's stripper is one per process, and so is its fault). */
export const stripLearnerTypes: LearnerTypeStripper = createTypeStripper();
