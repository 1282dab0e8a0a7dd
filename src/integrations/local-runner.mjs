// Adds the local exercise runner's API to `astro dev`, so exercises are graded on this machine while writing.
// The handler is loaded through Vite on the first request (it is TypeScript and pulls in the grading engine).
// Like `npm start`, the dev server prints a URL carrying a fresh token and opens it where a browser is
// available; a request to the runner without that token is refused (see src/local-runner/runner-api.ts).
import { randomBytes } from 'node:crypto';

/** @returns {import('astro').AstroIntegration} */
export function localRunner() {
  const token = randomBytes(32).toString('base64url');
  /** @type {import('vite').ViteDevServer | undefined} */
  let vite;
  return {
    name: 'course-local-runner',
    hooks: {
      'astro:server:setup': ({ server }) => {
        vite = server;
        const loadApi = () => server.ssrLoadModule('/src/local-runner/index.ts').then((m) => m.localRunnerApi(token));
        /** @type {Promise<(req: any, res: any) => Promise<boolean>> | undefined} */
        let api;
        server.middlewares.use((req, res, next) => {
          if (!req.url?.startsWith('/__runner/')) return next();
          api ??= loadApi();
          api.then((handle) => handle(req, res)).then((handled) => (handled ? undefined : next()), next);
        });
      },
      'astro:server:start': async ({ address, logger }) => {
        if (!vite) return;
        const base = `http://localhost:${address.port}`;
        const [{ announcement }, { openBrowser }, { tokenURL }, { runnerSandbox }] = await Promise.all([
          vite.ssrLoadModule('/src/local-runner/announce.ts'),
          vite.ssrLoadModule('/src/local-runner/open-browser.ts'),
          vite.ssrLoadModule('/src/runner/local/protocol.ts'),
          vite.ssrLoadModule('/src/local-runner/index.ts'),
        ]);
        logger.info(`\n${announcement(base, token, openBrowser(tokenURL(base, token)), runnerSandbox())}`);
      },
    },
  };
}
