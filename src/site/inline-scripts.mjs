// The site's only inline script, and its hash for the Content-Security-Policy (src/site/headers.mjs),
// which allows no other inline script. It must run before the first paint, so it cannot be a file:
// on a phone the course contents start folded so the lesson comes first; a deferred script folded
// them after the lesson had been drawn below, shifting the whole <main> (Lighthouse mobile CLS 0.78).
import { createHash } from 'node:crypto';

export const FOLD_SIDEBAR_ON_PHONES = "if(matchMedia('(max-width: 60rem)').matches)for(const d of document.querySelectorAll('.sidebar-toggle'))d.open=false;";

/** CSP source expressions for the inline scripts above. */
export const inlineScriptHashes = [FOLD_SIDEBAR_ON_PHONES].map((text) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`);
