/**
 * Serves the built site with `astro preview` (the same server the README's run command uses) and hands
 * its address to the tests. Without Chromium the run fails loudly, unless E2E_SKIP=1 says to skip.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import type { TestProject } from 'vitest/node';
import { chromiumAvailable, CHROMIUM_PATH } from './browser.ts';
import { DIST } from './site-pages.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    baseURL: string;
    skipBrowser: boolean;
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

async function waitForServer(url: string, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`astro preview exited early:\n${log()}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`astro preview did not answer within 30 s:\n${log()}`);
}

let server: ChildProcess | undefined;

export default async function setup(project: TestProject) {
  if (!chromiumAvailable()) {
    const banner = `\n${'!'.repeat(78)}\n  No Chromium at ${CHROMIUM_PATH}: the end-to-end tests cannot run.\n  Install it (apt-get install chromium) or set CHROMIUM_PATH.\n  To skip them on purpose, set E2E_SKIP=1.\n${'!'.repeat(78)}\n`;
    if (process.env.E2E_SKIP === '1') {
      console.warn(banner);
      project.provide('skipBrowser', true);
      project.provide('baseURL', '');
      return;
    }
    throw new Error(banner);
  }
  if (!existsSync(`${DIST}/index.html`)) throw new Error(`${DIST}/ is missing: run \`npm run build\` before the end-to-end tests.`);

  const port = await freePort();
  let output = '';
  server = spawn('node_modules/.bin/astro', ['preview', '--host', '127.0.0.1', '--port', String(port), '--outDir', DIST, '--ignore-lock'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.stdout?.on('data', (d) => (output += d));
  server.stderr?.on('data', (d) => (output += d));
  const baseURL = `http://127.0.0.1:${port}`;
  await waitForServer(`${baseURL}/vi/`, server, () => output);
  project.provide('baseURL', baseURL);
  project.provide('skipBrowser', false);

  return () => {
    server?.kill();
  };
}
