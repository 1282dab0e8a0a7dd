/**
 * An assignment travels in the URL fragment (`/en/assignment/#a=…`), so the site stays static and the
 * server never sees it: base64url of its UTF-8 JSON. Pure.
 */
import { assignmentSchema, type Assignment } from './file-schemas.ts';

const FRAGMENT_KEY = 'a';

function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text: string): Uint8Array {
  const b64 = text.replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

export function encodeAssignment(assignment: Assignment): string {
  return `${FRAGMENT_KEY}=${toBase64Url(new TextEncoder().encode(JSON.stringify(assignment)))}`;
}

export function assignmentLink(origin: string, lang: string, assignment: Assignment): string {
  return `${origin}/${lang}/assignment/#${encodeAssignment(assignment)}`;
}

/** Served from this machine: a link made here would send learners to their own computer. */
export const isLocalHost = (hostname: string) => /^(localhost|127(?:\.\d+){3}|\[::1\]|::1|0\.0\.0\.0)$/i.test(hostname) || hostname.endsWith('.localhost');

/** The site's address as the instructor gave it (`https://course.example.edu/`), as an origin; undefined if it is not one. */
export function siteOrigin(text: string): string | undefined {
  try {
    const url = new URL(text.trim());
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.origin + url.pathname.replace(/\/+$/, '') : undefined;
  } catch {
    return undefined;
  }
}

export type DecodedAssignment = { ok: true; assignment: Assignment } | { ok: false; reason: 'missing' | 'unreadable' | 'invalid' };

/** Reads `#a=…` (with or without the `#`); never throws. */
export function decodeAssignment(fragment: string): DecodedAssignment {
  const params = new URLSearchParams(fragment.replace(/^#/, ''));
  const encoded = params.get(FRAGMENT_KEY);
  if (!encoded) return { ok: false, reason: 'missing' };
  let data: unknown;
  try {
    data = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(fromBase64Url(encoded)));
  } catch {
    return { ok: false, reason: 'unreadable' };
  }
  const parsed = assignmentSchema.safeParse(data);
  return parsed.success ? { ok: true, assignment: parsed.data } : { ok: false, reason: 'invalid' };
}
