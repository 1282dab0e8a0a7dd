import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { deployConfigs } from '../../scripts/deploy-configs.mjs';
import { createHash } from 'node:crypto';
import { contentSecurityPolicy, cspDirectives, headersFile, siteHeaders } from './headers.mjs';
import { FOLD_SIDEBAR_ON_PHONES } from './inline-scripts.mjs';

const root = new URL('../../', import.meta.url);

describe('the site headers, from one source', () => {
  test('the committed vercel.json and netlify.toml are exactly what src/site/headers.mjs produces', () => {
    for (const [name, text] of Object.entries(deployConfigs)) {
      expect(readFileSync(new URL(name, root), 'utf8'), `${name}: run node scripts/deploy-configs.mjs --write`).toBe(text);
    }
  });

  test('both deploy configs build with npm run build, publish dist/, and send every header on every path', () => {
    const vercel = JSON.parse(deployConfigs['vercel.json']);
    expect(vercel).toMatchObject({ buildCommand: 'npm run build', outputDirectory: 'dist' });
    expect(vercel.headers).toEqual([{ source: '/(.*)', headers: Object.entries(siteHeaders).map(([key, value]) => ({ key, value })) }]);
    const netlify = deployConfigs['netlify.toml'];
    expect(netlify).toContain('command = "npm run build"');
    expect(netlify).toContain('publish = "dist"');
    for (const [k, v] of Object.entries(siteHeaders)) expect(netlify).toContain(`${k} = ${JSON.stringify(v)}`);
    expect(headersFile()).toBe(
      `/*\n${Object.entries(siteHeaders)
        .map(([k, v]) => `  ${k}: ${v}`)
        .join('\n')}\n`,
    );
  });

  test('the policy: scripts and workers from this origin (and blob: for the grading worker), no inline script but the hashed one, framed only by the site', () => {
    const foldHash = `'sha256-${createHash('sha256').update(FOLD_SIDEBAR_ON_PHONES).digest('base64')}'`;
    expect(cspDirectives['script-src']).toEqual(["'self'", foldHash, 'blob:', "'wasm-unsafe-eval'"]);
    expect(cspDirectives['worker-src']).toEqual(["'self'", 'blob:']);
    expect(contentSecurityPolicy).not.toContain("'unsafe-eval'");
    expect(contentSecurityPolicy).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    expect(contentSecurityPolicy).toContain("frame-ancestors 'self'");
    expect(contentSecurityPolicy).toContain("object-src 'none'");
    expect(cspDirectives['frame-src']).toContain('https://stackblitz.com');
    expect(siteHeaders).toMatchObject({
      'Cross-Origin-Opener-Policy': 'same-origin',
      'Cross-Origin-Embedder-Policy': 'require-corp',
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
    });
  });
});
