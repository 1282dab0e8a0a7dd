/**
 * Node for the page: everything a grading worker (or a "child process" worker) installs before any
 * suite or learner code runs, so that code written for Node runs there as in the Node grader:
 * Node's globals (globals.ts), the built-in modules code may import (modules.ts: timers, http,
 * net, events, stream, buffer, crypto, url, util), fetch answered by the page's own loopback
 * servers (http/), and the engine differences Node code can see (engine.ts). What is covered and
 * what is not: docs/in-page-node.md.
 */
import { installRequestBody, installStreamIteration, installV8Stacks } from './engine.ts';
import { installNodeGlobals, type TimerScope } from './globals.ts';
import { createNodeHttp } from './http/index.ts';
import { nodeModules } from './modules.ts';
import { createRuntime, type Runtime } from './runtime.ts';

export { AbortError } from './http/index.ts';
export { installNodeGlobals, nodeAbortSignalTimeout, NodeTimer, type TimerScope } from './globals.ts';
export { linkImports, loadOrder, localImports, nodeModuleSource } from './modules.ts';
export { toV8Stack } from './engine.ts';
export type { Runtime };

export interface NodeRuntime {
  rt: Runtime;
  /** Module name (without `node:`) → its exports. */
  modules: Record<string, Record<string, unknown>>;
}

/** Installs Node on `scope` (a worker's `self`); `mapUrl` names stack frames (a learner's blob: URL → its sandbox path). */
export function installNodeRuntime(scope: TimerScope & Record<string, unknown>, mapUrl: (url: string) => string = (u) => u): NodeRuntime {
  // The runtime takes the browser's own timers and fetch before Node's replace them.
  const rt = createRuntime(scope as unknown as typeof globalThis);
  const net = createNodeHttp(rt, (scope.fetch as typeof fetch).bind(scope));
  const modules = nodeModules(net, rt.handles);
  installNodeGlobals(scope, { rt, builtin: (name) => modules[name] });
  scope.fetch = net.fetch;
  installV8Stacks(scope, mapUrl);
  installRequestBody(scope);
  installStreamIteration(scope);
  return { rt, modules };
}
