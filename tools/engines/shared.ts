/** What the three implementations share: polling for a condition, key names, the refusing proxy. */
import { createServer } from 'node:http';
import type { EnginePage } from './types.ts';

/** `waitFor` on top of `evaluate`, the same in every engine: a poll every 100 ms. */
export async function pollUntil<A>(page: Pick<EnginePage, 'evaluate'>, what: string, fn: (arg: A) => unknown, arg: A, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      if (await page.evaluate(fn as (arg: A) => unknown, arg)) return;
      lastError = undefined;
    } catch (err) {
      // A navigation in progress (reload, a link) destroys the page's context: not yet, try again.
      lastError = err;
    }
    if (Date.now() > deadline) {
      const why = lastError ? ` (last error: ${lastError instanceof Error ? lastError.message : String(lastError)})` : '';
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${why}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** `Control+Enter` → ['Control', 'Enter']: modifiers first, the key last. */
export const chord = (keys: string) => keys.split('+').map((k) => (k === '' ? '+' : k));

/**
 * Firefox and WebKit have no Playwright-style `route`, so a page that must reach nothing but its own
 * origin gets this as its HTTP and HTTPS proxy (its own origin bypasses it): every request that comes
 * here went to another origin; it is recorded and refused. Of an HTTPS request only the host is seen
 * (CONNECT host:port), the rest is encrypted. Workers' requests go through it too.
 */
export function refusingProxy(): Promise<{ url: string; refused: string[]; stop(): void }> {
  const refused: string[] = [];
  const server = createServer((req, res) => {
    refused.push(req.url ?? '');
    res.writeHead(502, { 'content-type': 'text/plain', connection: 'close' }).end('refused: the end-to-end tests allow no other origin');
  });
  server.on('connect', (req, socket) => {
    refused.push(`https://${req.url}`);
    socket.end('HTTP/1.1 502 Bad Gateway\r\nconnection: close\r\ncontent-length: 0\r\n\r\n');
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      resolve({ url: `http://127.0.0.1:${port}`, refused, stop: () => (server.closeAllConnections(), server.close()) });
    });
  });
}
