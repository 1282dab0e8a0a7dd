/**
 * Serves a built site on a free loopback port and waits until it answers: with `astro preview` (a
 * static host) or with scripts/serve.ts (the README's `npm start`, which adds the local runner).
 * Used by the end-to-end setup, the workspace tests and the page and lab benchmarks.
 */
import { spawn } from 'node:child_process';
import { freePort } from './free-port.ts';

export interface ServedSite {
  url: string;
  /** The local runner's token, read from the URL scripts/serve.ts prints (empty for astro preview). */
  token: string;
  stop(): void;
}

export type SiteServer = 'astro-preview' | 'local-runner';

/** A page of the local site opened as from the URL npm start printed: with the runner token in the fragment. */
export const withRunnerToken = (site: ServedSite, url: string) => `${url}#runner-token=${site.token}`;

export async function serveSite(dist: string, kind: SiteServer = 'astro-preview'): Promise<ServedSite> {
  const port = String(await freePort());
  const [command, args, url] =
    kind === 'astro-preview'
      ? ['node_modules/.bin/astro', ['preview', '--host', '127.0.0.1', '--port', port, '--outDir', dist, '--ignore-lock'], `http://127.0.0.1:${port}`]
      : // localhost, as a learner would open it: the runner checks the page's origin
        ['node_modules/.bin/tsx', ['scripts/serve.ts', '--port', port, '--dist', dist, '--no-open'], `http://localhost:${port}`];
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  child.stdout.on('data', (d) => (log += d));
  child.stderr.on('data', (d) => (log += d));
  const stop = () => void child.kill();
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    try {
      if ((await fetch(`${url}/vi/`)).ok) {
        if (kind === 'astro-preview') return { url, token: '', stop };
        const token = /#runner-token=([\w-]+)/.exec(log)?.[1];
        if (token) return { url, token, stop };
      }
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  stop();
  throw new Error(`${command} ${args.join(' ')} did not answer within 30 s:\n${log}`);
}
