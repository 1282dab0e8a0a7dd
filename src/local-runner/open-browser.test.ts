import { describe, expect, test } from 'vitest';
import { browserCommand, redirectPage } from './open-browser.ts';

const ctx = (platform: NodeJS.Platform, env: Record<string, string> = {}, argv: string[] = []) => ({ platform, env, argv });

describe('opening the printed URL', () => {
  test('a browser is opened on a desktop and never on a headless server, in CI, or when asked not to', () => {
    expect(browserCommand('/tmp/x/open.html', ctx('darwin'))).toEqual(['open', ['/tmp/x/open.html']]);
    expect(browserCommand('/tmp/x/open.html', ctx('linux', { DISPLAY: ':0' }))).toEqual(['xdg-open', ['/tmp/x/open.html']]);
    expect(browserCommand('C:\\t\\open.html', ctx('win32'))?.[0]).toBe('explorer.exe');
    expect(browserCommand('f', ctx('linux'))).toBeUndefined(); // ssh session, no display
    expect(browserCommand('f', ctx('linux', { DISPLAY: ':0', CI: '1' }))).toBeUndefined();
    expect(browserCommand('f', ctx('darwin', { BROWSER: 'none' }))).toBeUndefined();
    expect(browserCommand('f', ctx('darwin', {}, ['--no-open']))).toBeUndefined();
  });

  test('the token never reaches a command line: the browser gets a file that redirects to the URL', () => {
    const command = browserCommand('/tmp/x/open.html', ctx('linux', { WAYLAND_DISPLAY: 'wayland-0' }))!;
    expect(command.flat().join(' ')).not.toContain('runner-token');
    const page = redirectPage('http://localhost:4321/#runner-token=abc_-1');
    expect(page).toContain('content="0;url=http://localhost:4321/#runner-token=abc_-1"');
    expect(redirectPage('http://x/#a="><script>')).not.toMatch(/["<>]script/);
  });
});
