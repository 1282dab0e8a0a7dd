import { describe, expect, test, vi } from 'vitest';
import { FakeWebContainer } from './testing/fake-webcontainer.ts';
import { cacheKey, InstallError, prepareEnvironment, type BytesCache } from './prepare-env.ts';
import { WEBCONTAINER_API_VERSION } from './wc-api.ts';

const env = { packageJson: '{"name":"env"}', lockfile: '{"lockfileVersion":3}' };

function memoryCache(): BytesCache & { entries: Map<string, Uint8Array> } {
  const entries = new Map<string, Uint8Array>();
  return { entries, get: async (k) => entries.get(k), put: async (k, v) => void entries.set(k, v) };
}

describe('prepareEnvironment', () => {
  test('first visit: mounts package.json with its lockfile, runs npm ci, caches the exported node_modules', async () => {
    const wc = new FakeWebContainer();
    const cache = memoryCache();
    const installing = vi.fn();
    expect(await prepareEnvironment(wc, env, cache, { onInstalling: installing })).toBe('npm ci');
    expect(wc.files.get('package.json')).toBe(env.packageJson);
    expect(wc.files.get('package-lock.json')).toBe(env.lockfile);
    expect(wc.spawns.map((s) => [s.command, s.args[0]])).toEqual([['npm', 'ci']]);
    expect(installing).toHaveBeenCalledOnce();
    expect(cache.entries.get(cacheKey(env))).toEqual(new Uint8Array([1, 2, 3]));
  });

  test('later visit: mounts a copy of the cached node_modules and skips the install', async () => {
    const wc = new FakeWebContainer();
    const cache = memoryCache();
    const snapshot = new Uint8Array([9, 9]);
    cache.entries.set(cacheKey(env), snapshot);
    const installing = vi.fn();
    expect(await prepareEnvironment(wc, env, cache, { onInstalling: installing })).toBe('cache');
    expect(
      wc.spawns.map((s) => s.command),
      'only the check that the snapshot runs',
    ).toEqual(['node']);
    expect(installing).not.toHaveBeenCalled();
    expect(wc.mounts.at(-1)).toEqual({ mountPoint: 'node_modules', binary: true });
    expect(wc.files.get('node_modules/<snapshot>')).not.toBe(snapshot); // a copy: mount detaches the buffer
  });

  test('a changed lockfile misses the cache', () => {
    expect(cacheKey(env)).not.toBe(cacheKey({ ...env, lockfile: '{"lockfileVersion":3,"x":1}' }));
  });

  test('a failed install is an InstallError; a cache that cannot store is not fatal', async () => {
    const failing = new FakeWebContainer();
    failing.onSpawn = () => ({ exitCode: 1, output: ['npm ERR! network'] });
    await expect(prepareEnvironment(failing, env, memoryCache(), { onInstalling: () => {} })).rejects.toBeInstanceOf(InstallError);
    expect(
      failing.spawns.map((s) => s.args[0]),
      'npm ci, then npm install',
    ).toEqual(['ci', 'install']);

    const wc = new FakeWebContainer();
    const broken: BytesCache = { get: async () => Promise.reject(new Error('no idb')), put: async () => Promise.reject(new Error('quota')) };
    expect(await prepareEnvironment(wc, env, broken, { onInstalling: () => {} })).toBe('npm ci');
  });

  test('npm ci failing falls back to npm install, and says so', async () => {
    const wc = new FakeWebContainer();
    wc.onSpawn = (spawn) => ({ exitCode: spawn.args[0] === 'ci' ? 1 : 0 });
    expect(await prepareEnvironment(wc, env, memoryCache(), { onInstalling: () => {} })).toBe('npm install');
    expect(wc.spawns.map((s) => s.args[0])).toEqual(['ci', 'install']);
  });

  test('a cached snapshot that mounts but does not run is dropped for a fresh install', async () => {
    const wc = new FakeWebContainer();
    const cache = memoryCache();
    cache.entries.set(cacheKey(env), new Uint8Array([7]));
    wc.files.set('node_modules/vitest/broken.js', 'x');
    wc.onSpawn = (spawn) => ({ exitCode: spawn.command === 'node' ? 1 : 0 });
    expect(await prepareEnvironment(wc, env, cache, { onInstalling: () => {} })).toBe('npm ci');
    expect(wc.files.has('node_modules/vitest/broken.js'), 'the broken node_modules was removed').toBe(false);
    expect(cache.entries.get(cacheKey(env))).toEqual(new Uint8Array([1, 2, 3]));
  });

  test('the cache key changes with the WebContainer release', () => {
    expect(cacheKey(env, '1.6.4')).not.toBe(cacheKey(env, '1.7.0'));
  });

  test('the release in the cache key is the installed @webcontainer/api', async () => {
    const { readFileSync } = await import('node:fs');
    const installed = JSON.parse(readFileSync('node_modules/@webcontainer/api/package.json', 'utf8')) as { version: string };
    expect(WEBCONTAINER_API_VERSION).toBe(installed.version);
  });
});
