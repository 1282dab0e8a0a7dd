/**
 * The learner's TypeScript made plain JavaScript in the grader, before strict grading mounts it:
 * Node's own type stripper (the one the learner's process would run), loaded once here instead of
 * once in every learner's process, where it cost about 85 ms of CPU (a grade of deadline-middleware
 * starts two such processes). Only types are erased, each replaced by spaces, so every line and
 * column stays where the learner wrote it (stack traces need no source map). A file that needs more
 * than erasing (an enum, a namespace, parameter properties) or does not parse is left as it is: the
 * learner's process compiles it itself, as before, and reports its errors the same way.
 *
 * Parsing untrusted code here is safe: nothing of it runs in the grader.
 */
import * as nodeModule from 'node:module';

/** Where the learner's process finds the list of files made plain (see learner-host.mjs). */
export const PLAIN_LIST = 'strict/plain-js.json';

type Strip = (code: string, options: { mode: 'strip' }) => string;

let strip: Strip | null | undefined;
function stripper(): Strip | null {
  if (strip !== undefined) return strip;
  const fn = (nodeModule as { stripTypeScriptTypes?: Strip }).stripTypeScriptTypes;
  if (typeof fn !== 'function') return (strip = null); // a Node without it: every file goes as it is
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
  return (strip = fn);
}

/**
 * `files` (path -> text) with each `.ts` file's types erased where that is all it needs; `plain`
 * lists those files, which the learner's process then loads as JavaScript.
 */
export function stripLearnerTypes(files: Record<string, string>): { files: Record<string, string>; plain: string[] } {
  const fn = stripper();
  const out: Record<string, string> = { ...files };
  const plain: string[] = [];
  if (!fn) return { files: out, plain };
  for (const [path, text] of Object.entries(files)) {
    if (!path.endsWith('.ts')) continue;
    try {
      out[path] = fn(text, { mode: 'strip' });
      plain.push(path);
    } catch {
      // ERR_UNSUPPORTED_TYPESCRIPT_SYNTAX or ERR_INVALID_TYPESCRIPT_SYNTAX: the learner's process decides
    }
  }
  return { files: out, plain };
}
