/** The page's side of the local runner: find it (same origin, with the tab's token), then grade through it. */
import type { Report } from '../../grading/core/index.ts';
import { captureRunnerToken } from './local-token.ts';
import { GRADE_PATH, SESSION_PATH, TOKEN_HEADER, type GradeResponse, type RefusedResponse, type SessionResponse } from './protocol.ts';
import { RunnerInputError, type GradeInput, type Runner } from '../runner-types.ts';

export interface LocalRunnerDeps {
  fetch: typeof fetch;
  /** How long to wait for the session answer before deciding there is no local runner. */
  probeTimeoutMs?: number;
  /** The tab's runner token; by default the one captured from the URL fragment into sessionStorage. */
  token?: string;
}

/**
 * What the session answer says: the local runner, ready for this tab; the local runner serving the page
 * but refusing this tab (opened without the printed URL, or holding the token of an earlier run); or no
 * local runner (a static host answers its placeholder, or a 404).
 */
export type LocalProbe = { runner: Runner } | { tokenMissing: true } | { absent: true };

/** Asks the session endpoint, with the tab's token when it has one. */
export async function findLocalRunner(deps: LocalRunnerDeps): Promise<LocalProbe> {
  const token = deps.token ?? captureRunnerToken();
  try {
    const res = await deps.fetch(SESSION_PATH, {
      credentials: 'same-origin',
      cache: 'no-store',
      headers: token ? { [TOKEN_HEADER]: token } : {},
      signal: AbortSignal.timeout(deps.probeTimeoutMs ?? 3000),
    });
    if (res.status === 401) {
      const refused = (await res.json().catch(() => ({}))) as Partial<RefusedResponse>;
      return refused.runner === 'local' ? { tokenMissing: true } : { absent: true };
    }
    if (!res.ok || !token) return { absent: true };
    const body = (await res.json()) as Partial<SessionResponse>;
    if (body.runner !== 'local') return { absent: true };
  } catch {
    return { absent: true };
  }
  return {
    runner: {
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
    },
  };
}
