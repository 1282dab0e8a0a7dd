import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import config from '../astro.config.mjs';

describe('npm start output', () => {
  it('drops only the bundler warning about Astro’s own "use astro:head-inject" directive', () => {
    const onLog = config.vite?.build?.rolldownOptions?.onLog as (
      level: string,
      log: { code?: string; message: string },
      handler: (l: string, log: unknown) => void,
    ) => void;
    const passed: unknown[] = [];
    const handler = (_: string, log: unknown) => passed.push(log);
    const astro = {
      code: 'MODULE_LEVEL_DIRECTIVE',
      message: 'The semantics of the module level directive "use astro:head-inject" in "x.mdx" may not be preserved',
    };
    const other = { code: 'MODULE_LEVEL_DIRECTIVE', message: 'The semantics of the module level directive "use client" in "y.ts" may not be preserved' };
    const unrelated = { code: 'CIRCULAR_DEPENDENCY', message: 'a -> b -> a' };
    for (const log of [astro, other, unrelated]) onLog('warn', log, handler);
    expect(passed).toEqual([other, unrelated]);
  });

  it('explains the engine warnings in one line when npm runs on an older Node, and says nothing otherwise', () => {
    const run = (agent: string) =>
      execFileSync(process.execPath, ['scripts/engine-note.mjs'], { env: { ...process.env, npm_config_user_agent: agent }, encoding: 'utf8' });
    const note = run('npm/11.19.1 node/v20.20.2 linux x64 workspaces/false');
    expect(note.trim().split('\n')).toHaveLength(1);
    expect(note).toContain('EBADENGINE');
    expect(run('npm/11.19.1 node/v24.21.0 linux x64 workspaces/false')).toBe('');
  });
});
