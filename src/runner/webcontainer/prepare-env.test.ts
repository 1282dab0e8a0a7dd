import { describe, expect, test, vi } from 'vitest';
import { FakeWebContainer } from './fake-webcontainer.ts';
import { cacheKey, InstallError, prepareEnvironment, type BytesCache } from './prepare-env.ts';

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
    expect(await prepareEnvironment(wc, env, cache, installing)).toBe('install');
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
    expect(await prepareEnvironment(wc, env, cache, installing)).toBe('cache');
    expect(wc.spawns).toHaveLength(0);
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
    await expect(prepareEnvironment(failing, env, memoryCache(), () => {})).rejects.toBeInstanceOf(InstallError);

    const wc = new FakeWebContainer();
    const broken: BytesCache = { get: async () => Promise.reject(new Error('no idb')), put: async () => Promise.reject(new Error('quota')) };
    expect(await prepareEnvironment(wc, env, broken, () => {})).toBe('install');
  });
});
