/**
 * The learner's TypeScript, made runnable in the browser by removing its types (sucrase: small enough
 * to load in a worker, and it keeps every line where it was, so stack traces point at the learner's
 * own lines). Types are not checked here; the editor's TypeScript worker shows type errors.
 */
import { transform } from 'sucrase';
import { LEARNER_URL_PREFIX } from './suite-paths.ts';

/** A syntax error, worded like esbuild's in the Node grader so the report locates it the same way. */
export class LearnerSyntaxError extends SyntaxError {
  override name = 'SyntaxError';
}

/** ES module text for `path` (a learner file such as `retry.ts`), named after its sandbox path in stack traces. */
export function stripTypes(path: string, source: string): string {
  let code: string;
  try {
    code = transform(source, { transforms: ['typescript'], disableESTransforms: true, keepUnusedImports: false, filePath: path }).code;
  } catch (err) {
    const e = err as { message?: string; loc?: { line: number; column: number } };
    const reason = String(e.message ?? err)
      .replace(/^Error transforming [^:]*: /, '')
      .replace(/\s*\(\d+:\d+\)$/, '');
    const where = e.loc ? `:${e.loc.line}:${e.loc.column}` : '';
    throw new LearnerSyntaxError(`${LEARNER_URL_PREFIX}${path}${where}: ERROR: ${reason}`);
  }
  return `${code}\n//# sourceURL=${LEARNER_URL_PREFIX}${path}\n`;
}
