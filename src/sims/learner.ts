/**
 * A learner's own exercise code as one more policy of a simulation ("use my code" in the labs,
 * `npm run sim -- <sim> --policy <folder>` on the command line). The simulations stay pure: they get
 * the module's exports, already loaded by whoever runs them (a Web Worker, the CLI), call its
 * functions on their own virtual clock and seeded randomness, and turn a missing export or a throw
 * into a message in both languages instead of failing the whole run. An endless loop cannot be caught
 * here; the worker or process running the simulation stops it (lab-controller.ts, scripts/sim.ts).
 */
import type { Text } from './types.ts';

/** The exports of a learner's module, for one exercise. */
export interface LearnerCode {
  /** The exercise the code was written for (its id: `backoff`, `retry-budget`…). */
  exercise: string;
  exports: Record<string, unknown>;
  /** The code does not pass the exercise's tests yet: its policy is marked so. */
  notPassing?: boolean;
}

/** What became of one learner policy in a run. */
export interface LearnerOutcome {
  exercise: string;
  /** The policy's id in the rows and series (`yours-<exercise>`). */
  policy: string;
  label: Text;
  notPassing: boolean;
  /** Why it did not run (a missing export, a throw): the rest of the lab ran without it. */
  error?: Text;
  /** How it compares with the closest built-in policy, in a sentence. */
  comparison?: Text;
}

export const learnerPolicyId = (exercise: string) => `yours-${exercise}`;

/** A problem in the learner's code, said in both languages. */
export class LearnerCodeError extends Error {
  constructor(readonly text: Text) {
    super(text.en);
    this.name = 'LearnerCodeError';
  }
}

/** The named function of the learner's module (a throw from it named), or a LearnerCodeError that says it is missing. */
export function learnerFunction<F extends (...args: never[]) => unknown>(code: LearnerCode, name: string): F {
  return guarded(name, learnerClass(code, name) as unknown as F);
}

/** The named class (or function) of the learner's module as it is, or a LearnerCodeError that says it is missing. */
export function learnerClass<C>(code: LearnerCode, name: string): C {
  const fn = code.exports[name];
  if (typeof fn !== 'function') {
    throw new LearnerCodeError({
      vi: `Code của bạn cho bài ${code.exercise} không export ${name}, mà simulation này cần.`,
      en: `Your code for ${code.exercise} exports no ${name}, which this simulation needs.`,
    });
  }
  return fn as C;
}

/** Calls `fn`, turning what it throws into a LearnerCodeError that names it. */
export function guarded<F extends (...args: never[]) => unknown>(name: string, fn: F): F {
  return ((...args: Parameters<F>) => {
    try {
      return fn(...args);
    } catch (err) {
      if (err instanceof LearnerCodeError) throw err;
      const what = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
      throw new LearnerCodeError({ vi: `${name} của bạn ném lỗi: ${what}`, en: `Your ${name} threw: ${what}` });
    }
  }) as F;
}

/** A number the learner's code returned, checked: a simulation cannot wait NaN or a negative delay. */
export function learnerNumber(name: string, value: unknown, min = 0): number {
  if (typeof value === 'number' && Number.isFinite(value) && value >= min) return value;
  throw new LearnerCodeError({
    vi: `${name} của bạn trả về ${String(value)}, không phải một số hữu hạn >= ${min}.`,
    en: `Your ${name} returned ${String(value)}, not a finite number >= ${min}.`,
  });
}

/** Runs one learner policy: its outcome, and its result when it ran to the end. */
export function runLearner<T>(base: Omit<LearnerOutcome, 'error' | 'comparison'>, run: () => T): { outcome: LearnerOutcome; result?: T } {
  try {
    return { outcome: { ...base }, result: run() };
  } catch (err) {
    const text = err instanceof LearnerCodeError ? err.text : { vi: `Code của bạn ném lỗi: ${String(err)}`, en: `Your code threw: ${String(err)}` };
    return { outcome: { ...base, error: text } };
  }
}

/** "Your …" for a policy label, marked when the code does not pass its exercise yet. */
export function learnerLabel(what: Text, notPassing: boolean | undefined): Text {
  const mark = notPassing ? { vi: ' (chưa qua các test của bài)', en: ' (not yet passing its tests)' } : { vi: '', en: '' };
  return { vi: `Code của bạn: ${what.vi}${mark.vi}`, en: `Your code: ${what.en}${mark.en}` };
}

/** Milliseconds as seconds for a sentence: "40 s", "2.5 s". */
export const seconds = (ms: number): string => `${Math.round(ms / 100) / 10} s`;

/**
 * The sentence that compares a learner policy's recovery with the closest built-in one:
 * "recovered 40 s later than the 10% budget", "recovered at the same moment as …", "did not recover".
 */
export function compareRecovery(yours: number | null, theirs: number | null, builtIn: Text, windowS: number): Text {
  if (yours === null && theirs === null) {
    return {
      vi: `Cả code của bạn lẫn ${builtIn.vi} đều chưa hồi phục trong ${windowS} s được theo dõi.`,
      en: `Neither your code nor ${builtIn.en} recovered within the ${windowS} s observed.`,
    };
  }
  if (yours === null) {
    return {
      vi: `Code của bạn chưa hồi phục trong ${windowS} s được theo dõi; ${builtIn.vi} hồi phục sau ${seconds(theirs!)}.`,
      en: `Your code did not recover within the ${windowS} s observed; ${builtIn.en} recovered after ${seconds(theirs!)}.`,
    };
  }
  if (theirs === null) {
    return {
      vi: `Code của bạn hồi phục sau ${seconds(yours)}; ${builtIn.vi} thì chưa hồi phục trong ${windowS} s được theo dõi.`,
      en: `Your code recovered after ${seconds(yours)}; ${builtIn.en} did not within the ${windowS} s observed.`,
    };
  }
  const d = yours - theirs;
  if (d === 0)
    return {
      vi: `Code của bạn hồi phục cùng lúc với ${builtIn.vi} (sau ${seconds(yours)}).`,
      en: `Your code recovered at the same moment as ${builtIn.en} (after ${seconds(yours)}).`,
    };
  return d > 0
    ? { vi: `Code của bạn hồi phục muộn hơn ${builtIn.vi} ${seconds(d)}.`, en: `Your code recovered ${seconds(d)} later than ${builtIn.en}.` }
    : { vi: `Code của bạn hồi phục sớm hơn ${builtIn.vi} ${seconds(-d)}.`, en: `Your code recovered ${seconds(-d)} earlier than ${builtIn.en}.` };
}
