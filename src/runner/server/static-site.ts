/**
 * Serves a built site folder the way `astro preview` does for this site: trailing-slash pages from
 * index.html, a redirect to add the slash, the 404 page, and the cross-origin isolation headers.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml',
  '.wasm': 'application/wasm',
  '.woff2': 'font/woff2',
  '.webmanifest': 'application/manifest+json',
};

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

export function staticSite(root: string, headers: Record<string, string>) {
  const base = normalize(root);
  const sendFile = (res: ServerResponse, file: string, status: number, head: boolean) => {
    res.statusCode = status;
    for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
    res.setHeader('content-type', TYPES[extname(file)] ?? 'application/octet-stream');
    res.setHeader('cache-control', extname(file) === '.html' ? 'no-cache' : 'public, max-age=300');
    if (head) return void res.end();
    createReadStream(file).pipe(res);
  };
  return async function serve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const head = req.method === 'HEAD';
    if (req.method !== 'GET' && !head) {
      res.statusCode = 405;
      return void res.end();
    }
    let path: string;
    try {
      path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    } catch {
      path = '/';
    }
    const full = normalize(join(base, path));
    if (full !== base && !full.startsWith(base + sep)) return sendFile(res, join(base, '404.html'), 404, head);
    if (path.endsWith('/') && (await isFile(join(full, 'index.html')))) return sendFile(res, join(full, 'index.html'), 200, head);
    if (!path.endsWith('/') && (await isFile(full))) return sendFile(res, full, 200, head);
    if (!path.endsWith('/') && (await isFile(join(full, 'index.html')))) {
      res.statusCode = 301;
      res.setHeader('location', `${path}/`);
      return void res.end();
    }
    return sendFile(res, join(base, '404.html'), 404, head);
  };
}
