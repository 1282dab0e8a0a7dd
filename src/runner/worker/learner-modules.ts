/**
 * The learner's files as modules of a worker: types removed, each imported from a blob: URL (in an
 * order where a file comes after the files it imports), its imports of Node modules and of the
 * other learner files pointed at their blob: URLs, and stack frames named by the file's sandbox path.
 * Shared by the grading worker and the "child process" workers it starts.
 */
import { linkImports, loadOrder, localImports, nodeModuleSource } from './node/index.ts';
import { LEARNER_URL_PREFIX } from './suite-paths.ts';

const blobUrl = (code: string) => URL.createObjectURL(new Blob([code], { type: 'text/javascript' }));

/** blob: URL of each learner module → its sandbox URL, for stack traces (see engine.ts). */
const sandboxUrls = new Map<string, string>();
export const sandboxUrlOf = (url: string) => sandboxUrls.get(url) ?? url;

/** One blob: module per Node module, re-exporting it from the worker's registry. */
export function nodeModuleUrls(modules: Record<string, Record<string, unknown>>): Record<string, string> {
  return Object.fromEntries(Object.entries(modules).map(([name, exports]) => [name, blobUrl(nodeModuleSource(name, exports))]));
}

/**
 * Imports plain-JavaScript learner files (already stripped of types): their namespaces by path, and
 * the blob: URLs that other modules import them by. `urls` holds the Node modules' blob: URLs.
 */
export async function importLearnerFiles(
  code: Record<string, string>,
  urls: Record<string, string>,
): Promise<{ modules: Record<string, Record<string, unknown>>; urls: Record<string, string> }> {
  const linked = { ...urls };
  const modules: Record<string, Record<string, unknown>> = {};
  for (const path of loadOrder(code, localImports)) {
    const url = blobUrl(linkImports(code[path]!, path, linked));
    sandboxUrls.set(url, `${LEARNER_URL_PREFIX}${path}`);
    linked[path] = url;
    modules[path] = (await import(/* @vite-ignore */ url)) as Record<string, unknown>;
  }
  return { modules, urls: linked };
}

/** A module of the worker's own (a child's main script) whose imports are linked like a learner file's. */
export function linkedModuleUrl(code: string, name: string, urls: Record<string, string>): string {
  return blobUrl(linkImports(code, name, urls));
}
