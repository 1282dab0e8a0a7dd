/**
 * A promise that is awaited later, marked handled now. Node ends the process with exit code 1 on a
 * rejection that has no handler when it happens; a promise kept to be awaited later (a learner's
 * process awaited once the tests are done, a sandbox awaited by the grade queued behind another)
 * would otherwise end the grader if it failed meanwhile. Awaiting it still gives the rejection.
 */
export function awaitedLater<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => undefined);
  return promise;
}
