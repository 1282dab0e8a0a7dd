/**
 * Opens the printed URL in the learner's browser where there is one. The URL carries the runner token,
 * and a process's command line is readable by every account on the machine (/proc/<pid>/cmdline), so
 * the browser is never given the URL itself: like Jupyter, it opens a private file (mode 0600, in a
 * mode 0700 folder) that redirects to the URL.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface OpenContext {
  platform: NodeJS.Platform;
  env: Record<string, string | undefined>;
  argv: string[];
}

/** The command that opens a file in the default browser, or undefined when none should be tried. */
export function browserCommand(file: string, ctx: OpenContext): [string, string[]] | undefined {
  const { env } = ctx;
  if (ctx.argv.includes('--no-open') || env.BROWSER === 'none' || env.CI) return undefined;
  if (ctx.platform === 'darwin') return ['open', [file]];
  if (ctx.platform === 'win32') return ['explorer.exe', [file]];
  // Linux and the BSDs: only with a graphical session, else xdg-open may start a text browser in our terminal.
  if (env.DISPLAY || env.WAYLAND_DISPLAY) return ['xdg-open', [file]];
  return undefined;
}

/** The redirect page: the URL is escaped for an HTML attribute and a JS string alike. */
export function redirectPage(url: string): string {
  const safe = url.replace(/[^A-Za-z0-9:/._~#=%-]/g, (c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
  return `<!doctype html><meta charset="utf-8"><meta http-equiv="refresh" content="0;url=${safe}"><title>Course</title><a href="${safe}">${safe.split('#')[0]}</a>\n`;
}

/** Tries to open `url`; true when a browser command was started (it may still fail on its own). */
export function openBrowser(url: string, ctx: OpenContext = { platform: process.platform, env: process.env, argv: process.argv }): boolean {
  if (!browserCommand('', ctx)) return false;
  try {
    const file = join(mkdtempSync(join(tmpdir(), 'course-open-')), 'open.html'); // mkdtemp makes it 0700
    writeFileSync(file, redirectPage(url), { mode: 0o600 });
    const command = browserCommand(file, ctx)!;
    const child = spawn(command[0], command[1], { detached: true, stdio: 'ignore' });
    child.on('error', () => undefined); // no opener installed: the printed URL is enough
    child.unref();
    return true;
  } catch {
    return false;
  }
}
