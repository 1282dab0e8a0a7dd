/**
 * The end-to-end tests in three browser engines (tools/engines/, docs/browsers.md): one describe block
 * per selected engine. An engine whose binaries are missing is skipped with a banner naming the Debian
 * package to install, unless `E2E_REQUIRE_ENGINES=1` (CI) makes that a failing test.
 */
import { afterAll, beforeAll, describe, it } from 'vitest';
import { type Engine, type EngineName, launchEngine, missingPackages, missingPaths, selectedEngines } from '../tools/engines/index.ts';

export * from '../tools/engines/index.ts';

function missingBanner(name: EngineName, packages: string[], required: boolean): string {
  const paths = missingPaths(name);
  return [
    '!'.repeat(78),
    `  ${name}: ${paths.join(', ')} not found, so its end-to-end tests ${required ? 'FAIL (E2E_REQUIRE_ENGINES=1)' : 'are SKIPPED'}.`,
    `  Install it: apt-get install ${packages.join(' ')}`,
    required
      ? '  (E2E_ENGINES=chromium,... picks the engines of a local run.)'
      : '  (E2E_REQUIRE_ENGINES=1 makes this a failure, as in CI; E2E_ENGINES=chromium,... picks engines.)',
    '!'.repeat(78),
  ].join('\n');
}

/**
 * One describe block per selected engine, named after it, with the engine launched once for the
 * block (`engine()` inside tests). A missing engine skips its block loudly, or fails it under
 * E2E_REQUIRE_ENGINES=1.
 */
export function describeEngines(body: (name: EngineName, engine: () => Engine) => void): void {
  for (const name of selectedEngines()) {
    const missing = missingPackages(name);
    if (missing.length) {
      const required = process.env.E2E_REQUIRE_ENGINES === '1';
      const banner = missingBanner(name, missing, required);
      if (required) {
        describe(name, () => it(`${name} is installed (E2E_REQUIRE_ENGINES=1)`, () => fail(banner)));
      } else {
        console.warn(`\n${banner}\n`);
        describe.skip(name, () => body(name, () => fail(banner)));
      }
      continue;
    }
    describe(name, () => {
      let engine: Engine | undefined;
      beforeAll(async () => void (engine = await launchEngine(name)), 60_000);
      afterAll(async () => void (await engine?.close()), 60_000);
      body(name, () => engine!);
    });
  }
}

function fail(message: string): never {
  throw new Error(message);
}
