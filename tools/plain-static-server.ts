/**
 * The plainest static host there is, for the tests and benchmarks of grading without any server: it
 * serves files from a built site with a content type and nothing else. No cross-origin isolation
 * headers (like GitHub Pages), no local runner (/__runner/ is only the static placeholder file), and
 * `index.html` for folders, as every static host does.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createServer } from 'node:http';
import { extname, join, normalize, resolve } from 'node:path';
import { CONTENT_TYPES } from '../src/local-runner/static-site.ts';
import type { ServedSite } from './serve-site.ts';

export function servePlainStatic(dist: string): Promise<ServedSite> {
  const root = resolve(dist);
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    let file = normalize(join(root, path));
    if (!file.startsWith(root)) return void res.writeHead(403).end();
    try {
      if ((await stat(file)).isDirectory()) file = join(file, 'index.html');
      await stat(file);
    } catch {
      return void res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    }
    res.writeHead(200, { 'content-type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream' });
    createReadStream(file).pipe(res);
  });
  return new Promise((resolveServed) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      resolveServed({ url: `http://127.0.0.1:${port}`, token: '', stop: () => void server.close() });
    });
  });
}
