/**
 * Strict grading of many submissions: the tests' sandboxes (vitest left running, see grader-warm.mjs)
 * are kept per exercise and reused, since no learner's code ever runs in them; every grade gets a
 * fresh sandbox for the learner's process, removed afterwards.
 */
import type { GradeOptions, GradeRequest } from './grade.ts';
import { gradeStrict, type StrictOutcome } from './strict-grade.ts';
import type { Sandbox } from './types.ts';

/** Exercises whose hidden tests the protocol cannot carry at all, and why. */
export const PROTOCOL_CANNOT_CARRY: Readonly<Record<string, string>> = {
  'service-chain':
    'its tests connect to the http.Server each service returns; a server in another sandbox is out of reach of the tests\' network',
};

/** Exercises graded in one (confined) process, and why. */
export const NOT_STRICT: Readonly<Record<string, string>> = PROTOCOL_CANNOT_CARRY;

export function strictSupported(exerciseId: string): boolean {
  return !(exerciseId in NOT_STRICT);
}

export class StrictGrader {
  private readonly idle = new Map<string, Sandbox[]>();
  private readonly all = new Set<Sandbox>();

  constructor(
    private readonly createSandbox: () => Promise<Sandbox>,
    private readonly opts: Omit<GradeOptions, 'typecheck'>,
  ) {}

  async grade(request: GradeRequest, overrides: Partial<GradeOptions> = {}): Promise<StrictOutcome> {
    const tests = this.idle.get(request.exerciseId)?.pop() ?? (await this.track(await this.createSandbox()));
    const learner = await this.createSandbox();
    let healthy = false;
    try {
      const outcome = await gradeStrict(request, { tests, learner }, { warm: true, ...this.opts, ...overrides });
      healthy = true;
      return outcome;
    } finally {
      await learner.dispose?.();
      if (healthy) this.idle.set(request.exerciseId, [...(this.idle.get(request.exerciseId) ?? []), tests]);
      else await this.drop(tests);
    }
  }

  private async track(s: Sandbox): Promise<Sandbox> {
    this.all.add(s);
    return s;
  }

  private async drop(s: Sandbox): Promise<void> {
    this.all.delete(s);
    await s.dispose?.();
  }

  async dispose(): Promise<void> {
    await Promise.all([...this.all].map((s) => this.drop(s)));
    this.idle.clear();
  }
}
