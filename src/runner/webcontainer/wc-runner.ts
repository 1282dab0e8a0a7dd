/** Grading in a WebContainer: boot once, prepare the env, then the shared grading core per run. */
import { GradeInputError, gradeWith } from '../grading-core.ts';
import { bundleSource, type ClientBundle } from '../bundle.ts';
import { serialQueue } from '../run-queue.ts';
import { RunnerInputError, type Runner } from '../runner-types.ts';
import { prepareEnvironment, type BytesCache } from './prepare-env.ts';
import type { WebContainerLike } from './wc-api.ts';
import { WebContainerSandbox } from './wc-sandbox.ts';

export interface WebContainerRunnerDeps {
  /** The document's one WebContainer (see boot.ts). */
  boot: () => Promise<WebContainerLike>;
  bundle: ClientBundle;
  cache: BytesCache;
  onInstalling: () => void;
  fetch?: typeof fetch;
}

export async function startWebContainerRunner(deps: WebContainerRunnerDeps): Promise<Runner> {
  const wc = await deps.boot();
  const env = { packageJson: deps.bundle.env['package.json'] ?? '', lockfile: deps.bundle.lockfile };
  await prepareEnvironment(wc, env, deps.cache, deps.onInstalling);
  const sandbox = new WebContainerSandbox(wc);
  const source = bundleSource(deps.fetch);
  const queue = serialQueue();
  return {
    kind: 'webcontainer',
    grade: (input) =>
      queue(async () => {
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
