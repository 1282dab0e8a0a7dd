/** The page's side of the local runner: find it (same origin, with the tab's token), then grade through it. */
import type { Report } from '../grading/core/types.ts';
import { captureRunnerToken } from './local-token.ts';
import { GRADE_PATH, SESSION_PATH, TOKEN_HEADER, type GradeResponse, type SessionResponse } from './protocol.ts';
import { RunnerInputError, type GradeInput, type Runner } from './runner-types.ts';

export interface LocalRunnerDeps {
  fetch: typeof fetch;
  /** How long to wait for the session answer before deciding there is no local runner. */
  probeTimeoutMs?: number;
  /** The tab's runner token; by default the one captured from the URL fragment into sessionStorage. */
  token?: string;
}

/**
 * The local runner, or undefined when this tab has no token (it was not opened from the URL the server
 * printed) or the site is not served by one (a static host answers its placeholder or 404).
 */
export async function findLocalRunner(deps: LocalRunnerDeps): Promise<Runner | undefined> {
  const token = deps.token ?? captureRunnerToken();
  if (!token) return undefined;
  try {
    const res = await deps.fetch(SESSION_PATH, {
      credentials: 'same-origin',
      cache: 'no-store',
      headers: { [TOKEN_HEADER]: token },
      signal: AbortSignal.timeout(deps.probeTimeoutMs ?? 3000),
    });
    if (!res.ok) return undefined;
    const body = (await res.json()) as Partial<SessionResponse>;
    if (body.runner !== 'local') return undefined;
  } catch {
    return undefined;
  }
  return {
    kind: 'local',
    async grade(input: GradeInput): Promise<Report> {
      const res = await deps.fetch(GRADE_PATH, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [TOKEN_HEADER]: token },
        body: JSON.stringify(input),
      });
      const body = (await res.json()) as GradeResponse;
      if (body.ok) return body.report;
      if (res.status === 400) throw new RunnerInputError(body.error);
      throw new Error(body.error);
    },
  };
}
