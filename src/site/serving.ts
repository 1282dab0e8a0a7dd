/**
 * How the local server sends a built file: which encoding (brotli, else gzip, for text only) and how
 * long a browser may keep it (Astro's /_astro/ files carry a content hash in their names, so they never
 * change: a year, immutable; pages are revalidated). Pure; src/local-runner/static-site.ts applies it.
 */
const COMPRESSIBLE = /^(text\/|application\/(json|javascript|xml|manifest\+json|wasm)|image\/svg\+xml)/;

export type Encoding = 'br' | 'gzip' | undefined;

/** Brotli when the browser takes it, else gzip; nothing for fonts and images, already compressed. */
export function pickEncoding(acceptEncoding: string | undefined, contentType: string): Encoding {
  if (!COMPRESSIBLE.test(contentType)) return undefined;
  const accepted = new Map(
    (acceptEncoding ?? '').split(',').map((part) => {
      const [name, ...params] = part.trim().toLowerCase().split(';');
      const q = params.map((p) => /^\s*q=([\d.]+)/.exec(p)?.[1]).find(Boolean);
      return [name!, q === undefined ? 1 : Number(q)] as const;
    }),
  );
  if ((accepted.get('br') ?? 0) > 0) return 'br';
  if ((accepted.get('gzip') ?? 0) > 0) return 'gzip';
  return undefined;
}

/** The hashed build assets are immutable; pages are revalidated each time; the rest briefly cached. */
export function cacheControl(urlPath: string, ext: string): string {
  if (urlPath.startsWith('/_astro/')) return 'public, max-age=31536000, immutable';
  return ext === '.html' ? 'no-cache' : 'public, max-age=300';
}
