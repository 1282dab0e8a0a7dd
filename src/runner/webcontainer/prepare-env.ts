/**
 * Installs the exercise environment in a booted WebContainer: package.json and its lockfile, then
 * node_modules from the IndexedDB cache when an identical lockfile was installed before, else `npm ci`
 * (exported once and cached, so later visits skip the install).
 */
import type { WebContainerLike } from './wc-api.ts';

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

/** FNV-1a: a cache key only needs to change when the files change. */
export function cacheKey(env: EnvFiles): string {
  let h = 0x811c9dc5;
  const text = `${env.packageJson}\0${env.lockfile}`;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return `node_modules:${h.toString(16)}:${text.length}`;
}

async function drain(stream: ReadableStream<string>, max = 4000): Promise<string> {
  let text = '';
  await stream
    .pipeTo(new WritableStream({ write: (c) => void (text = (text + c).slice(-max)) }))
    .catch(() => undefined);
  return text;
}

export async function prepareEnvironment(
  wc: WebContainerLike,
  env: EnvFiles,
  cache: BytesCache,
  onInstalling: () => void,
  installTimeoutMs = 180_000,
): Promise<'cache' | 'install'> {
  await wc.mount({ 'package.json': { file: { contents: env.packageJson } }, 'package-lock.json': { file: { contents: env.lockfile } } });
  const key = cacheKey(env);
  const cached = await cache.get(key).catch(() => undefined);
  if (cached) {
    try {
      await wc.fs.mkdir('node_modules', { recursive: true });
      await wc.mount(cached.slice(), { mountPoint: 'node_modules' }); // mount detaches the buffer
      return 'cache';
    } catch {
      // a damaged entry: install instead
    }
  }
  onInstalling();
  const proc = await wc.spawn('npm', ['ci', '--no-audit', '--no-fund']);
  const output = drain(proc.output);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const code = await Promise.race([
    proc.exit,
    new Promise<number>((resolve) => (timer = setTimeout(() => (proc.kill(), resolve(-1)), installTimeoutMs))),
  ]);
  clearTimeout(timer);
  if (code !== 0) throw new InstallError(`npm ci exited with ${code}: ${await Promise.race([output, Promise.resolve('')])}`);
  try {
    await cache.put(key, await wc.export('node_modules', { format: 'binary' }));
  } catch {
    // no cache this time (private mode, quota): the next visit installs again
  }
  return 'install';
}
