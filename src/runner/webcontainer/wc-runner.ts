/**
 * Grading in a WebContainer: boot once, prepare the env, then the shared grading core per run. When a
 * killed test process would not die, the next run tears the container down and boots a fresh one.
 */
import { GradeInputError, gradeWith } from '../../grading/core/index.ts';
import { bundleSource, type ClientBundle } from '../bundle.ts';
import { serialQueue } from '../run-queue.ts';
import { RunnerInputError, type Runner } from '../runner-types.ts';
import { prepareEnvironment, type BytesCache, type Installed } from './prepare-env.ts';
import type { WebContainerLike } from './wc-api.ts';
import { WebContainerSandbox } from './wc-sandbox.ts';

export interface WebContainerRunnerDeps {
  /** The document's one WebContainer (see boot.ts). */
  boot: () => Promise<WebContainerLike>;
  /** Tears the current instance down and boots another. */
  reboot: () => Promise<WebContainerLike>;
  bundle: ClientBundle;
  cache: BytesCache;
  onInstalling: () => void;
  onInstalled?: (how: Installed) => void;
  /** Messages from the container's `on('error')`. */
  onError?: (message: string) => void;
  fetch?: typeof fetch;
  killGraceMs?: number;
}

export async function startWebContainerRunner(deps: WebContainerRunnerDeps): Promise<Runner> {
  const env = { packageJson: deps.bundle.env['package.json'] ?? '', lockfile: deps.bundle.lockfile };
  let stuck = false;
  const open = async (wc: WebContainerLike) => {
    wc.on('error', (e) => deps.onError?.(e.message));
    const installed = await prepareEnvironment(wc, env, deps.cache, { onInstalling: deps.onInstalling });
    deps.onInstalled?.(installed);
    return new WebContainerSandbox(wc, () => (stuck = true), deps.killGraceMs);
  };
  let sandbox = await open(await deps.boot());
  const source = bundleSource(deps.fetch);
  const queue = serialQueue();
  return {
    kind: 'webcontainer',
    grade: (input) =>
      queue(async () => {
        if (stuck) {
          stuck = false;
          sandbox = await open(await deps.reboot());
        }
        try {
          // TypeScript is not installed in the browser env (kept small); the editor's worker type-checks.
          return await gradeWith(input, sandbox, { source, typecheck: false });
        } catch (err) {
          if (err instanceof GradeInputError) throw new RunnerInputError(err.localized(input.lang));
          throw err;
        }
      }),
  };
}
