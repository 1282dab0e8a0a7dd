/**
 * Strict grading of many submissions: the tests' sandboxes (vitest left running, see grader-warm.mjs)
 * are kept per exercise and reused, since no learner's code ever runs in them; every grade gets a
 * fresh sandbox for the learner's process, removed afterwards.
 */
import type { GradeOptions, GradeRequest } from '../core/grade.ts';
import { canHandOverSockets, gradeStrict, type StrictOutcome } from './strict-grade.ts';
import type { Sandbox } from '../core/types.ts';
import { defineCatalog } from '../../i18n/catalog.ts';

/**
 * The exercises graded in one (confined) process, each with why in both languages (`npm run check --
 * <id> --strict` says it): their hidden tests need what the protocol cannot carry. Every other
 * exercise is graded strictly.
 */
export const notStrictReasons = defineCatalog({
  en: {
    'service-chain':
      "its tests listen on, send HTTP requests to and hang up on the http.Server each of the learner's services returns, and the services call each other over HTTP; a server in the learner's sandbox is in another network namespace, out of reach of the tests",
  },
  vi: {
    'service-chain':
      'test của bài này listen, gửi request HTTP tới và ngắt kết nối với http.Server mà mỗi service của học viên trả về, còn các service gọi nhau qua HTTP; server nằm trong sandbox của học viên thuộc một network namespace khác, test không với tới được',
  },
});

/** The exercises graded in one (confined) process: notStrictReasons' keys. */
export const NOT_STRICT: readonly string[] = notStrictReasons.keys;

export function strictSupported(exerciseId: string): boolean {
  return !NOT_STRICT.includes(exerciseId);
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
