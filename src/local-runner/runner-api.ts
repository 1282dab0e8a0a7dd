/**
 * The local runner's endpoints. They run the learner's code on this machine with the learner's rights,
 * so every request must come over loopback, name a loopback host (no DNS rebinding), come from the
 * site's own origin, and carry the per-process token. The token is only ever printed to the terminal
 * that started the server (inside a URL fragment): no endpoint returns it, so another account on the
 * same machine, which can reach loopback and forge any header, still cannot drive the runner.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Report } from '../grading/core/index.ts';
import {
  GRADE_PATH,
  MAX_BODY_BYTES,
  parseGradeBody,
  RUNNER_BASE,
  SESSION_PATH,
  TOKEN_HEADER,
  type GradeBody,
  type RefusedResponse,
} from '../runner/local/protocol.ts';
import { serialQueue } from '../runner/run-queue.ts';

export interface RunnerApiOptions {
  /** Grades one request; input errors are thrown as errors with a `localized(lang)` method. */
  grade: (body: GradeBody) => Promise<Report>;
  /** Defaults to 32 fresh random bytes; pass one to print it before the API is created (astro dev). */
  token?: string;
}

export type RunnerApi = ((req: IncomingMessage, res: ServerResponse) => Promise<boolean>) & { token: string };

/** A fresh token: 256 random bits, URL-safe. */
export const newRunnerToken = () => randomBytes(32).toString('base64url');

const LOOPBACK_ADDRESS = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;
const LOOPBACK_HOST = /^(localhost|127\.\d+\.\d+\.\d+|\[::1\])(:\d+)?$/i;

function send(res: ServerResponse, status: number, body: unknown): true {
  res.statusCode = status;
  res.setHeader('content-type', 'application/json; charset=utf-8');
  res.setHeader('cache-control', 'no-store');
  res.end(JSON.stringify(body));
  return true;
}

function sameToken(given: string | undefined, expected: string): boolean {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The page's own origin as the browser would send it, or undefined when the host is not loopback. */
function ownOrigin(req: IncomingMessage): string | undefined {
  const host = req.headers.host;
  return host && LOOPBACK_HOST.test(host) ? `http://${host}` : undefined;
}

/**
 * The body, or undefined when it is over the limit. An oversized body is still read to its end (and
 * dropped), so the client gets its 413 instead of a connection reset mid-upload; only a request that
 * carried the token gets this far.
 */
async function readBody(req: IncomingMessage): Promise<string | undefined> {
  let size = 0;
  const chunks: Buffer[] = [];
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size <= MAX_BODY_BYTES) chunks.push(chunk);
  }
  return size > MAX_BODY_BYTES ? undefined : Buffer.concat(chunks).toString('utf8');
}

/** Returns a handler that answers requests under /__runner/ (true) and leaves the others (false). */
export function createRunnerApi(opts: RunnerApiOptions): RunnerApi {
  const token = opts.token ?? newRunnerToken();
  const queue = serialQueue(); // one grading run at a time: they are CPU-bound
  const handler = async (req: IncomingMessage, res: ServerResponse): Promise<boolean> => {
    const path = (req.url ?? '').split('?')[0]!;
    if (!path.startsWith(RUNNER_BASE)) return false;
    if (!LOOPBACK_ADDRESS.test(req.socket.remoteAddress ?? '')) return send(res, 403, { ok: false, error: 'loopback only' });
    const origin = ownOrigin(req);
    if (!origin) return send(res, 403, { ok: false, error: 'host not allowed' });
    const from = req.headers.origin;
    const site = req.headers['sec-fetch-site'];
    // A browser always sends Origin on cross-origin requests and Sec-Fetch-Site when it knows it.
    if ((from !== undefined && from !== origin) || (site !== undefined && site !== 'same-origin')) {
      return send(res, 403, { ok: false, error: 'origin not allowed' });
    }
    const given = req.headers[TOKEN_HEADER];
    if (!sameToken(typeof given === 'string' ? given : undefined, token)) {
      const refused: RefusedResponse = { ok: false, error: 'token missing or wrong: open the URL printed by npm start (or npm run dev)', runner: 'local' };
      return send(res, 401, refused);
    }

    if (path === SESSION_PATH && req.method === 'GET') return send(res, 200, { runner: 'local' });
    if (path === GRADE_PATH && req.method === 'POST') {
      if (from !== origin) return send(res, 403, { ok: false, error: 'origin not allowed' });
      if (!String(req.headers['content-type'] ?? '').startsWith('application/json')) return send(res, 415, { ok: false, error: 'JSON only' });
      const raw = await readBody(req);
      if (raw === undefined) return send(res, 413, { ok: false, error: 'request too large' });
      let body: GradeBody | undefined;
      try {
        body = parseGradeBody(JSON.parse(raw));
      } catch {
        body = undefined;
      }
      if (!body) return send(res, 400, { ok: false, error: 'not a grade request' });
      const request = body;
      try {
        const report = await queue(() => opts.grade(request));
        return send(res, 200, { ok: true, report });
      } catch (err) {
        const localized = (err as { localized?: (lang: string) => string }).localized;
        if (typeof localized === 'function') return send(res, 400, { ok: false, error: localized.call(err, request.lang) });
        return send(res, 500, { ok: false, error: err instanceof Error ? err.message : String(err) });
      }
    }
    return send(res, 404, { ok: false, error: 'not found' });
  };
  return Object.assign(handler, { token });
}
