/**
 * The local runner's HTTP contract, shared by the page (browser) and the server (Node).
 * Authentication works like Jupyter's: the server prints a URL whose fragment carries a fresh token
 * (a fragment is never sent to any server), the page keeps it in sessionStorage for the tab, and sends
 * it with every request. No endpoint hands the token out, so another local user cannot learn it.
 */
import type { Lang, Report } from '../../grading/core/index.ts';

export const RUNNER_BASE = '/__runner/';
/** Also a static file in public/ (runner null), so a static host answers it without a 404. */
export const SESSION_PATH = `${RUNNER_BASE}session.json`;
export const GRADE_PATH = `${RUNNER_BASE}grade`;
export const TOKEN_HEADER = 'x-runner-token';
/** The fragment parameter of the URL the server prints: `http://localhost:4321/#runner-token=…`. */
export const TOKEN_PARAM = 'runner-token';
/** Where the page keeps the token: sessionStorage, so it lives as long as the tab and no longer. */
export const TOKEN_STORAGE_KEY = 'course.runner-token';
/** A grade request body is a handful of source files; anything bigger is refused. */
export const MAX_BODY_BYTES = 512 * 1024;

/** The session answer to a request carrying the right token; it never contains the token. */
export interface SessionResponse {
  runner: 'local';
}

/**
 * The answer (401) to a request without this run's token, or with another run's: the server says it is
 * the local runner, so a tab opened without the printed URL knows to ask for it (and never falls back
 * to a third party's runner), but nothing else.
 */
export interface RefusedResponse {
  ok: false;
  error: string;
  runner: 'local';
}

/** The URL that opens the site with the token, as printed by `npm start` and `npm run dev`. */
export function tokenURL(base: string, token: string): string {
  return `${base.replace(/\/$/, '')}/#${TOKEN_PARAM}=${encodeURIComponent(token)}`;
}

export interface GradeBody {
  exerciseId: string;
  files: Record<string, string>;
  lang: Lang;
}

export type GradeResponse = { ok: true; report: Report } | { ok: false; error: string };

/** Validates an untrusted grade body; returns undefined when it is not one. */
export function parseGradeBody(value: unknown): GradeBody | undefined {
  if (!value || typeof value !== 'object') return undefined;
  const v = value as Record<string, unknown>;
  if (typeof v.exerciseId !== 'string' || !/^[a-z0-9-]{1,64}$/.test(v.exerciseId)) return undefined;
  if (v.lang !== 'vi' && v.lang !== 'en') return undefined;
  if (!v.files || typeof v.files !== 'object' || Array.isArray(v.files)) return undefined;
  const files: Record<string, string> = {};
  for (const [name, text] of Object.entries(v.files as Record<string, unknown>)) {
    if (typeof text !== 'string') return undefined;
    files[name] = text;
  }
  return { exerciseId: v.exerciseId, files, lang: v.lang };
}
