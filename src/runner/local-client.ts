/** The page's side of the local runner: find it (same origin), then grade through it. */
import type { Report } from '../grading/types.ts';
import { GRADE_PATH, SECRET_HEADER, SESSION_PATH, type GradeResponse, type SessionResponse } from './protocol.ts';
import { RunnerInputError, type GradeInput, type Runner } from './runner-types.ts';

export interface LocalRunnerDeps {
  fetch: typeof fetch;
  /** How long to wait for the session answer before deciding there is no local runner. */
  probeTimeoutMs?: number;
}

/** The local runner, or undefined when the site is not served by one (a static host answers 404). */
export async function findLocalRunner(deps: LocalRunnerDeps): Promise<Runner | undefined> {
  let secret: string;
  try {
    const res = await deps.fetch(SESSION_PATH, {
      credentials: 'same-origin',
      cache: 'no-store',
      signal: AbortSignal.timeout(deps.probeTimeoutMs ?? 3000),
    });
    if (!res.ok) return undefined;
    const body = (await res.json()) as Partial<SessionResponse>;
    if (typeof body.secret !== 'string' || !body.secret) return undefined;
    secret = body.secret;
  } catch {
    return undefined;
  }
  return {
    kind: 'local',
    async grade(input: GradeInput): Promise<Report> {
      const res = await deps.fetch(GRADE_PATH, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [SECRET_HEADER]: secret },
        body: JSON.stringify(input),
      });
      const body = (await res.json()) as GradeResponse;
      if (body.ok) return body.report;
      if (res.status === 400) throw new RunnerInputError(body.error);
      throw new Error(body.error);
    },
  };
}
