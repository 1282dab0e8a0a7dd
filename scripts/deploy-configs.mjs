// Writes (--write) or checks the committed deploy configs (vercel.json, netlify.toml) against the one
// source of the site's headers, src/site/headers.mjs. Usage: node scripts/deploy-configs.mjs [--write]
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { netlifyConfig, vercelConfig } from '../src/site/headers.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
export const deployConfigs = { 'vercel.json': vercelConfig(), 'netlify.toml': netlifyConfig() };

if (import.meta.url === `file://${process.argv[1]}`) {
  let stale = 0;
  for (const [name, text] of Object.entries(deployConfigs)) {
    if (process.argv.includes('--write')) writeFileSync(`${root}${name}`, text);
    else if (readFileSync(`${root}${name}`, 'utf8') !== text) {
      stale++;
      process.stderr.write(`${name} differs from src/site/headers.mjs: run node scripts/deploy-configs.mjs --write\n`);
    }
  }
  process.exitCode = stale ? 1 : 0;
}
