/**
 * Strict grading of many submissions: the tests' sandboxes (vitest left running, see grader-warm.mjs)
 * are kept per exercise and reused, since no learner's code ever runs in them; every grade gets a
 * fresh sandbox for the learner's process, removed afterwards.
 */
import type { GradeOptions, GradeRequest } from '../core/index.ts';
import { canHandOverSockets, gradeStrict, type StrictOutcome } from './strict-grade.ts';
import type { Sandbox } from '../core/index.ts';

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
    if (!canHandOverSockets(learner)) {
      await learner.dispose?.();
      throw new Error("strict grading needs a sandbox that can hand a socket to the learner's process (ConfinedSandbox)");
    }
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
