// Adds the local exercise runner's API to `astro dev`, so exercises are graded on this machine while writing.
// The handler is loaded through Vite on the first request (it is TypeScript and pulls in the grading engine).
/** @returns {import('astro').AstroIntegration} */
export function localRunner() {
  return {
    name: 'course-local-runner',
    hooks: {
      'astro:server:setup': ({ server }) => {
        /** @type {Promise<(req: any, res: any) => Promise<boolean>> | undefined} */
        let api;
        server.middlewares.use((req, res, next) => {
          if (!req.url?.startsWith('/__runner/')) return next();
          api ??= server.ssrLoadModule('/src/runner/server/index.ts').then((m) => m.localRunnerApi());
          api.then((handle) => handle(req, res)).then((handled) => (handled ? undefined : next()), next);
        });
      },
    },
  };
}
