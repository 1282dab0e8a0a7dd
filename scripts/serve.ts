// npm start's server: the built site (dist/) plus the local exercise runner, on loopback only.
// Usage: tsx scripts/serve.ts [--port 4321] [--dist dist] [--no-open] [--lang vi|en]
// Prints the URL carrying this run's runner token and opens it where a browser is available.
import { createServer } from 'node:http';
import { resolve } from 'node:path';
import { existsSync } from 'node:fs';
import { siteHeaders } from '../src/site/headers.mjs';
import { localRunnerApi } from '../src/local-runner/index.ts';
import { announcement, reminder, reprintOnEnter } from '../src/local-runner/announce.ts';
import { openBrowser } from '../src/local-runner/open-browser.ts';
import { tokenURL } from '../src/runner/local/protocol.ts';
import { staticSite } from '../src/local-runner/static-site.ts';
import { msg } from './cli-messages.ts';
import { runCli } from './run-cli.ts';

runCli({
  usage: { vi: msg('vi', 'usage.serve'), en: msg('en', 'usage.serve') },
  options: { port: { type: 'string' }, dist: { type: 'string' }, 'no-open': { type: 'boolean' } },
  maxPositionals: 0,
  main({ values, lang, usageError }) {
    const port = Number(values.port ?? process.env.PORT ?? '4321');
    if (!Number.isInteger(port) || port < 0 || port > 65535) return usageError(msg(lang, 'serve.badPort', { port: String(values.port ?? process.env.PORT) }));
    const dist = resolve(values.dist ?? 'dist');
    if (!existsSync(`${dist}/index.html`)) {
      process.stderr.write(`${msg(lang, 'serve.noBuild', { index: `${dist}/index.html` })}\n`);
      return 2;
    }
    serve(port, dist);
    return 0;
  },
});

function serve(port: number, dist: string): void {
  const runner = localRunnerApi();
  const site = staticSite(dist, siteHeaders);
  const server = createServer(async (req, res) => {
    try {
      for (const [k, v] of Object.entries(siteHeaders)) res.setHeader(k, v);
      if (!(await runner(req, res))) await site(req, res);
    } catch (err) {
      process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
      if (!res.headersSent) res.statusCode = 500;
      res.end();
    }
  });
  // Loopback only: the runner executes code sent by the page.
  server.listen(port, '127.0.0.1', () => {
    const base = `http://localhost:${port}`;
    const write = (text: string) => void process.stdout.write(text);
    // Enter in this terminal prints the URL again (a tab opened without it is told so).
    const reprint = reprintOnEnter(process.stdin, write, () => reminder(base, runner.token));
    write(announcement(base, runner.token, openBrowser(tokenURL(base, runner.token)), runner.sandbox, { reprint }));
  });
}
