// npm start's server: the built site (dist/) plus the local exercise runner, on loopback only.
// Usage: tsx scripts/serve.ts [--port 4321] [--dist dist] [--no-open]
// Prints the URL carrying this run's runner token and opens it where a browser is available.
import { createServer } from 'node:http';
import { resolve } from 'node:path';
import { existsSync } from 'node:fs';
import { siteHeaders } from '../src/site/headers.mjs';
import { localRunnerApi } from '../src/runner/server/index.ts';
import { announcement } from '../src/runner/server/announce.ts';
import { openBrowser } from '../src/runner/server/open-browser.ts';
import { tokenURL } from '../src/runner/protocol.ts';
import { staticSite } from '../src/runner/server/static-site.ts';

function option(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback;
}

const port = Number(option('port', process.env.PORT ?? '4321'));
const dist = resolve(option('dist', 'dist'));
if (!existsSync(`${dist}/index.html`)) {
  process.stderr.write(`${dist}/index.html is missing: build the site first (npm run build).\n`);
  process.exit(2);
}
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
  process.stdout.write(announcement(base, runner.token, openBrowser(tokenURL(base, runner.token)), runner.sandbox));
});
