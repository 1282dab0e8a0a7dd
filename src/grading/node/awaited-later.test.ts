import { expect, test } from 'vitest';
import { awaitedLater } from './awaited-later.ts';

// Without awaitedLater, the rejection below is unhandled while the test sleeps, and vitest fails the
// run with "Unhandled Rejection" (as Node would end a grader with exit code 1).
test('a promise awaited later may reject meanwhile: nothing is unhandled, and awaiting it still gives the error', async () => {
  const later = awaitedLater(Promise.reject(new Error('refused: the grader is stopping')));
  await new Promise((resolve) => setTimeout(resolve, 20));
  await expect(later).rejects.toThrow('refused');
});

test('a value is passed on as it is', async () => {
  await expect(awaitedLater(Promise.resolve(42))).resolves.toBe(42);
});
