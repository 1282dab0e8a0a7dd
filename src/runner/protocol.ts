/**
 * The local runner's HTTP contract, shared by the page (browser) and the server (Node).
 * The page first asks for the per-process secret (same origin only), then sends it with each grade.
 */
import type { Lang, Report } from '../grading/types.ts';

export const RUNNER_BASE = '/__runner/';
/** Also a static file in public/ (secret null), so a static host answers it without a 404. */
export const SESSION_PATH = `${RUNNER_BASE}session.json`;
export const GRADE_PATH = `${RUNNER_BASE}grade`;
export const SECRET_HEADER = 'x-runner-secret';
/** A grade request body is a handful of source files; anything bigger is refused. */
export const MAX_BODY_BYTES = 512 * 1024;

export interface SessionResponse {
  secret: string;
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
