/**
 * Installs the exercise environment in a booted WebContainer: package.json and its lockfile, then
 * node_modules from the IndexedDB cache when the same lockfile (and the same @webcontainer/api) was
 * installed before and the snapshot still runs, else `npm ci`, falling back to `npm install` (the
 * in-container npm has rejected subcommands before). Exported once and cached, so later visits skip it.
 */
import { WEBCONTAINER_API_VERSION, type WebContainerLike } from './wc-api.ts';

export interface BytesCache {
  get(key: string): Promise<Uint8Array | undefined>;
  put(key: string, bytes: Uint8Array): Promise<void>;
}

export interface EnvFiles {
  packageJson: string;
  lockfile: string;
}

export class InstallError extends Error {
  override name = 'InstallError';
}

/** Where node_modules came from. */
export type Installed = 'cache' | 'npm ci' | 'npm install';

/** FNV-1a: a cache key only needs to change when the files or the WebContainer release change. */
export function cacheKey(env: EnvFiles, apiVersion = WEBCONTAINER_API_VERSION): string {
  let h = 0x811c9dc5;
  const text = `${apiVersion}\0${env.packageJson}\0${env.lockfile}`;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return `node_modules:${apiVersion}:${h.toString(16)}:${text.length}`;
}

async function drain(stream: ReadableStream<string>, max = 4000): Promise<string> {
  let text = '';
  await stream.pipeTo(new WritableStream({ write: (c) => void (text = (text + c).slice(-max)) })).catch(() => undefined);
  return text;
}

/** Runs a command to its end (or kills it at the limit): its exit code (-1 on timeout) and last output. */
async function run(wc: WebContainerLike, command: string, args: string[], timeoutMs: number): Promise<{ code: number; output: string }> {
  const proc = await wc.spawn(command, args);
  const output = drain(proc.output);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const code = await Promise.race([proc.exit, new Promise<number>((resolve) => (timer = setTimeout(() => (proc.kill(), resolve(-1)), timeoutMs)))]);
  clearTimeout(timer);
  return { code, output: await Promise.race([output, Promise.resolve('')]) };
}

export interface PrepareOptions {
  onInstalling(): void;
  installTimeoutMs?: number;
  /** How long the cached snapshot may take to prove it runs (vitest --version). */
  checkTimeoutMs?: number;
}

export async function prepareEnvironment(wc: WebContainerLike, env: EnvFiles, cache: BytesCache, opts: PrepareOptions): Promise<Installed> {
  const installTimeoutMs = opts.installTimeoutMs ?? 180_000;
  await wc.mount({ 'package.json': { file: { contents: env.packageJson } }, 'package-lock.json': { file: { contents: env.lockfile } } });
  const key = cacheKey(env);
  const cached = await cache.get(key).catch(() => undefined);
  if (cached) {
    try {
      await wc.fs.mkdir('node_modules', { recursive: true });
      await wc.mount(cached.slice(), { mountPoint: 'node_modules' }); // mount detaches the buffer
      const check = await run(wc, 'node', ['node_modules/vitest/vitest.mjs', '--version'], opts.checkTimeoutMs ?? 30_000);
      if (check.code === 0) return 'cache';
    } catch {
      // a damaged entry: install instead
    }
    await wc.fs.rm('node_modules', { recursive: true, force: true }).catch(() => undefined);
  }
  opts.onInstalling();
  let installed: Installed = 'npm ci';
  const ci = await run(wc, 'npm', ['ci', '--no-audit', '--no-fund'], installTimeoutMs);
  if (ci.code !== 0) {
    installed = 'npm install';
    await wc.fs.rm('node_modules', { recursive: true, force: true }).catch(() => undefined);
    const plain = await run(wc, 'npm', ['install', '--no-audit', '--no-fund'], installTimeoutMs);
    if (plain.code !== 0) {
      throw new InstallError(`npm ci exited with ${ci.code}: ${ci.output}\nnpm install exited with ${plain.code}: ${plain.output}`);
    }
  }
  try {
    await cache.put(key, await wc.export('node_modules', { format: 'binary' }));
  } catch {
    // no cache this time (private mode, quota): the next visit installs again
  }
  return installed;
}
