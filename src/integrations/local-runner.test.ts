// `npm run dev` (astro dev with this integration) answered the runner's session like `npm start` did:
// the secret to anyone on the machine. Now it prints its own token URL and refuses requests without it.
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { localRunner } from './local-runner.mjs';

type Handler = (req: IncomingMessage, res: ServerResponse, next: () => void) => void;
let handler: Handler | undefined;
let server: Server;
let port = 0;
let printed = '';

beforeAll(async () => {
  process.env.BROWSER = 'none'; // print, do not open
  const hooks = localRunner().hooks as Record<string, (arg: unknown) => unknown>;
  // A stand-in for Vite's dev server: the middleware stack and module loading, nothing else.
  const vite = {
    middlewares: { use: (h: Handler) => (handler = h) },
    ssrLoadModule: (path: string) => import(/* @vite-ignore */ new URL(`../..${path}`, import.meta.url).pathname),
  };
  hooks['astro:server:setup']!({ server: vite });
  server = createServer((req, res) => handler!(req, res, () => res.writeHead(404).end('site')));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as { port: number }).port;
  await hooks['astro:server:start']!({ address: { port }, logger: { info: (text: string) => (printed += text) } });
});
afterAll(() => new Promise((r) => server.close(r)));

function get(path: string, headers: Record<string, string> = {}) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    request({ host: '127.0.0.1', port, path, headers: { host: `localhost:${port}`, ...headers } }, (res) => {
      let body = '';
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode!, body }));
    })
      .on('error', reject)
      .end();
  });
}

describe('npm run dev’s local runner', () => {
  test('prints a URL whose fragment carries the token, and says whether learner code is confined', () => {
    expect(printed).toMatch(new RegExp(`Course site: http://localhost:${port}/#runner-token=[\\w-]{43}\\n`));
    expect(printed).toMatch(/Learner code runs confined|learner code is NOT confined/);
  });

  test('refuses the session to a request without the token (curl from another account) and never shows it', async () => {
    const token = /runner-token=([\w-]+)/.exec(printed)![1]!;
    const bare = await get('/__runner/session.json');
    expect(bare.status).toBe(401);
    expect(bare.body).not.toContain(token);
    expect(await get('/__runner/session.json', { 'x-runner-token': token })).toEqual({ status: 200, body: '{"runner":"local"}' });
    expect((await get('/vi/')).body).toBe('site'); // everything else is left to Astro
  });
});
