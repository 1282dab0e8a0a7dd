// The page's node:http and fetch, proven against Node's own: every scenario of http-scenarios.ts runs
// against both, and every object's events (with the state code reads at each) must be the same.
import { createServer } from 'node:http';
import { describe, expect, test } from 'vitest';
import { createRuntime } from '../runtime.ts';
import { SCENARIOS, type HttpEnv } from '../testing/http-scenarios.ts';
import { createNodeHttp } from './index.ts';
import type * as NodeHttp from 'node:http';

/** A port nothing listens on (not one of fetch's "bad ports"). */
async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const { port } = s.address() as { port: number };
  await new Promise((resolve) => s.close(resolve));
  return port;
}

describe("the page's node:http behaves as Node's", () => {
  for (const scenario of SCENARIOS) {
    test(scenario.name, async () => {
      const port = await closedPort();
      const node: HttpEnv = { http: await import('node:http'), fetch: globalThis.fetch, closedPort: port };
      const page = createNodeHttp(createRuntime(), globalThis.fetch);
      const inPage: HttpEnv = { http: page.http as unknown as typeof NodeHttp, fetch: page.fetch, closedPort: port };
      const [expected, actual] = [await scenario.run(node), await scenario.run(inPage)];
      expect(actual).toEqual(expected);
    });
  }
});
