/**
 * Every response header the site sends, from this one place: `npm run dev` and `astro preview`
 * (Astro's server.headers), `npm start` (scripts/serve.ts), and the deploy configs (dist/_headers,
 * dist/vercel.json, and the committed vercel.json and netlify.toml, written by
 * scripts/deploy-configs.mjs and checked against this file by a unit test).
 */
import { isolationHeaders } from './isolation-headers.mjs';
import { inlineScriptHashes } from './inline-scripts.mjs';

/**
 * Where the WebContainer fallback talks to: `WebContainer.boot()` adds a hidden iframe from
 * https://stackblitz.com/headless (@webcontainer/api 1.6.4, dist/internal/iframe-url.js); previews
 * and the runtime's own traffic use *.webcontainer-api.io. The iframe loads the rest under its own policy.
 */
const STACKBLITZ_FRAMES = ['https://stackblitz.com', 'https://*.stackblitz.com', 'https://*.webcontainer-api.io'];
const STACKBLITZ_CONNECT = ['https://stackblitz.com', 'https://*.webcontainer-api.io', 'wss://*.webcontainer-api.io'];

/** The policy, one directive per entry, each with why it is as loose as it is. */
export const cspDirectives = {
  'default-src': ["'self'"],
  // Scripts from this origin only (Astro's bundles in /_astro/, Pagefind's in /pagefind/; the build
  // writes every script as a file, see astro.config.mjs), and the one inline script that must run before
  // the first paint, by its hash (inline-scripts.mjs). blob: is the in-page grading worker importing the
  // learner's type-stripped code; 'wasm-unsafe-eval' is Pagefind's WebAssembly.
  'script-src': ["'self'", ...inlineScriptHashes, 'blob:', "'wasm-unsafe-eval'"],
  // The editor's TypeScript worker (/_astro/) and the grading worker (same origin, learner code as blob:).
  'worker-src': ["'self'", 'blob:'],
  // CodeMirror writes its theme into <style> elements at run time, and Astro inlines small stylesheets.
  'style-src': ["'self'", "'unsafe-inline'"],
  'img-src': ["'self'", 'data:', 'blob:'],
  'font-src': ["'self'"],
  'connect-src': ["'self'", ...STACKBLITZ_CONNECT],
  'frame-src': STACKBLITZ_FRAMES,
  'frame-ancestors': ["'self'"],
  'object-src': ["'none'"],
  'base-uri': ["'self'"],
  'form-action': ["'self'"],
};

export const contentSecurityPolicy = Object.entries(cspDirectives)
  .map(([name, sources]) => `${name} ${sources.join(' ')}`)
  .join('; ');

/** The headers of every response, pages and assets alike. */
export const siteHeaders = {
  ...isolationHeaders,
  'Content-Security-Policy': contentSecurityPolicy,
  'X-Content-Type-Options': 'nosniff',
  // Nothing the site links to needs to know where the reader came from.
  'Referrer-Policy': 'no-referrer',
  // For browsers without frame-ancestors.
  'X-Frame-Options': 'SAMEORIGIN',
};

/** Netlify and Cloudflare Pages: `_headers` in the published folder. */
export function headersFile(headers = siteHeaders) {
  return `/*\n${Object.entries(headers)
    .map(([k, v]) => `  ${k}: ${v}`)
    .join('\n')}\n`;
}

const headerList = (headers) => Object.entries(headers).map(([key, value]) => ({ key, value }));

/** Vercel reads vercel.json from the repository root (the build settings), and from a prebuilt folder. */
export function vercelConfig(headers = siteHeaders, { build = true } = {}) {
  const config = {
    ...(build ? { $schema: 'https://openapi.vercel.sh/vercel.json', buildCommand: 'npm run build', outputDirectory: 'dist' } : {}),
    headers: [{ source: '/(.*)', headers: headerList(headers) }],
  };
  return `${JSON.stringify(config, null, 2)}\n`;
}

/** TOML basic strings: the policy has quotes in it. */
const tomlString = (s) => JSON.stringify(s);

export function netlifyConfig(headers = siteHeaders) {
  const lines = [
    '# Written by scripts/deploy-configs.mjs from src/site/headers.mjs: edit those, then run it with --write.',
    '[build]',
    '  command = "npm run build"',
    '  publish = "dist"',
    '',
    '[[headers]]',
    '  for = "/*"',
    '  [headers.values]',
    ...Object.entries(headers).map(([k, v]) => `    ${k} = ${tomlString(v)}`),
  ];
  return `${lines.join('\n')}\n`;
}
