/**
 * Serves a built site folder the way `astro preview` does for this site: trailing-slash pages from
 * index.html, a redirect to add the slash, the 404 page, and the cross-origin isolation headers.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import { constants as zlib, createBrotliCompress, createGzip } from 'node:zlib';
import { cacheControl, pickEncoding } from '../site/serving.ts';

/** Content types by file extension (also used by the tests' plain static host). */
export const CONTENT_TYPES: Record<string, string> = {
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
  const sendFile = (req: IncomingMessage, res: ServerResponse, file: string, status: number, head: boolean) => {
    res.statusCode = status;
    for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
    const type = CONTENT_TYPES[extname(file)] ?? 'application/octet-stream';
    res.setHeader('content-type', type);
    res.setHeader('cache-control', cacheControl(new URL(req.url ?? '/', 'http://x').pathname, extname(file)));
    // Compressed on the fly (the site is small and local; see src/site/serving.ts for the choice).
    const encoding = pickEncoding(req.headers['accept-encoding'], type);
    res.setHeader('vary', 'accept-encoding');
    if (encoding) res.setHeader('content-encoding', encoding);
    if (head) return void res.end();
    const body = createReadStream(file);
    if (!encoding) return void body.pipe(res);
    const compress = encoding === 'br' ? createBrotliCompress({ params: { [zlib.BROTLI_PARAM_QUALITY]: 5 } }) : createGzip();
    body.pipe(compress).pipe(res);
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
    if (full !== base && !full.startsWith(base + sep)) return sendFile(req, res, join(base, '404.html'), 404, head);
    if (path.endsWith('/') && (await isFile(join(full, 'index.html')))) return sendFile(req, res, join(full, 'index.html'), 200, head);
    if (!path.endsWith('/') && (await isFile(full))) return sendFile(req, res, full, 200, head);
    if (!path.endsWith('/') && (await isFile(join(full, 'index.html')))) {
      res.statusCode = 301;
      res.setHeader('location', `${path}/`);
      return void res.end();
    }
    return sendFile(req, res, join(base, '404.html'), 404, head);
  };
}
