import { createServer, request, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import type { Report } from '../grading/core/types.ts';
import { GRADE_PATH, SESSION_PATH, TOKEN_HEADER } from '../runner/local/protocol.ts';
import { createRunnerApi } from './runner-api.ts';

const report: Report = { version: 3, status: 'pass', tests: [], typeErrors: [], counts: { passed: 3, failed: 0, total: 3 }, durationMs: 9 };
const grade = vi.fn(async () => report);
const api = createRunnerApi({ grade });
let server: Server;
let port = 0;
let origin = '';

beforeAll(async () => {
  server = createServer(async (req, res) => {
    if (!(await api(req, res))) res.writeHead(404).end('site');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as { port: number }).port;
  origin = `http://127.0.0.1:${port}`;
});
afterAll(() => new Promise((r) => server.close(r)));

/** node:http instead of fetch, so Host and Origin can be set as a browser (or an attacker) would. */
function call(path: string, opts: { method?: string; headers?: Record<string, string>; body?: string } = {}) {
  return new Promise<{ status: number; body: any }>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method: opts.method ?? 'GET', headers: opts.headers }, (res) => {
      let text = '';
      res.on('data', (c) => (text += c));
      res.on('end', () => resolve({ status: res.statusCode!, body: text.startsWith('{') ? JSON.parse(text) : text }));
    });
    req.on('error', reject);
    req.end(opts.body);
  });
}

const body = JSON.stringify({ exerciseId: 'retry-helper', files: { 'retry.ts': 'x' }, lang: 'en' });
const post = (headers: Record<string, string>, data = body) =>
  call(GRADE_PATH, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: data });

describe('local runner API', () => {
  test('a same-origin page with the printed token finds the runner and grades with it', async () => {
    expect(api.token.length).toBeGreaterThanOrEqual(40);
    const session = await call(SESSION_PATH, { headers: { 'sec-fetch-site': 'same-origin', [TOKEN_HEADER]: api.token } });
    expect(session).toEqual({ status: 200, body: { runner: 'local' } });
    const graded = await post({ origin, [TOKEN_HEADER]: api.token });
    expect(graded).toEqual({ status: 200, body: { ok: true, report } });
    expect(grade).toHaveBeenCalledWith({ exerciseId: 'retry-helper', files: { 'retry.ts': 'x' }, lang: 'en' });
  });

  // The attack: another account on the machine (curl, no browser headers) asked for the secret, then
  // POSTed code with a hand-written Origin. No answer may carry the token, and nothing runs without it.
  test('another local user with curl learns no token from any endpoint and cannot grade with a forged Origin', async () => {
    grade.mockClear();
    for (const path of [SESSION_PATH, '/__runner/', '/__runner/token', '/__runner/session']) {
      const res = await call(path);
      expect(res.status).toBe(401);
      expect(JSON.stringify(res.body)).not.toContain(api.token);
    }
    expect((await post({ origin })).status).toBe(401);
    expect((await post({ origin, [TOKEN_HEADER]: 'guess' })).status).toBe(401);
    expect((await post({ origin, [TOKEN_HEADER]: api.token.slice(0, -1) })).status).toBe(401);
    expect(grade).not.toHaveBeenCalled();
  });

  test('a tab of the site without the token learns only that the local runner serves it', async () => {
    const res = await call(SESSION_PATH, { headers: { 'sec-fetch-site': 'same-origin' } });
    expect(res).toEqual({ status: 401, body: { ok: false, error: expect.stringContaining('open the URL printed by npm start'), runner: 'local' } });
  });

  test('another origin is refused even with the token', async () => {
    grade.mockClear();
    expect((await call(SESSION_PATH, { headers: { origin: 'https://evil.example', [TOKEN_HEADER]: api.token } })).status).toBe(403);
    expect((await call(SESSION_PATH, { headers: { 'sec-fetch-site': 'cross-site', [TOKEN_HEADER]: api.token } })).status).toBe(403);
    expect((await post({ origin: 'https://evil.example', [TOKEN_HEADER]: api.token })).status).toBe(403);
    expect((await post({ 'sec-fetch-site': 'same-site', origin, [TOKEN_HEADER]: api.token })).status).toBe(403);
    expect((await post({ [TOKEN_HEADER]: api.token })).status).toBe(403); // a POST without Origin is not from a page
    expect(grade).not.toHaveBeenCalled();
  });

  test('a rebound DNS name (Host not loopback) is refused even with the token', async () => {
    const res = await post({ host: 'evil.example', origin: 'http://evil.example', [TOKEN_HEADER]: api.token });
    expect(res.status).toBe(403);
  });

  test('malformed requests get clear errors; an input error comes back in the language asked', async () => {
    const headers = { origin, [TOKEN_HEADER]: api.token };
    expect((await post(headers, '{"exerciseId":"../x","files":{},"lang":"en"}')).status).toBe(400);
    expect((await post(headers, 'not json')).status).toBe(400);
    expect((await post(headers, 'x'.repeat(600 * 1024))).status).toBe(413);
    grade.mockRejectedValueOnce(Object.assign(new Error('unknown'), { localized: (lang: string) => `localized:${lang}` }));
    expect(await post(headers)).toEqual({ status: 400, body: { ok: false, error: 'localized:en' } });
  });

  test('other paths are left to the site', async () => {
    expect(await call('/vi/')).toEqual({ status: 404, body: 'site' });
  });
});
