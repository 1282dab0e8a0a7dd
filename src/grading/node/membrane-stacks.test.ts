// What the learner's process learns of the tests' errors: their class, name, message and fields, never
// the frames of their stack, which name the hidden test files and the host's folders.
import { describe, expect, test } from 'vitest';
import { createMembrane, type Membrane } from '../../../exercises/_env/strict/membrane.mjs';

/** The two ends of the protocol, joined in memory; a synchronous call delivers until it is answered. */
function pair(learnerExports: Record<string, unknown>) {
  const inbox: Array<{ to: 'tests' | 'learner'; msg: Record<string, unknown> }> = [];
  const deliverOne = () => {
    const next = inbox.shift();
    if (next) (next.to === 'tests' ? tests : learner).receive(next.msg);
    return next !== undefined;
  };
  const end = (to: 'tests' | 'learner') => ({
    send: (msg: object) => {
      inbox.push({ to, msg: JSON.parse(JSON.stringify(msg)) as Record<string, unknown> });
      setImmediate(() => {
        while (deliverOne());
      });
    },
    waitUntil: (done: () => boolean) => {
      while (!done()) if (!deliverOne()) throw new Error('deadlock: nothing left to deliver');
    },
  });
  const tests: Membrane = createMembrane({ ...end('learner'), guard: true });
  const learner: Membrane = createMembrane({ ...end('tests'), guard: false, onLoad: () => learnerExports });
  return tests.request({ t: 'load', file: 'x.ts' }) as Record<string, unknown>;
}

describe("the tests' errors, as the learner's code sees them", () => {
  test('keep their class, message and fields, and carry no frame of the tests', () => {
    let seen: { stack: string; message: string; name: string; isRange: boolean; code: unknown } | undefined;
    const mod = pair({
      look: (thrower: () => void) => {
        try {
          thrower();
        } catch (error) {
          const e = error as RangeError & { code?: unknown };
          seen = { stack: String(e.stack), message: e.message, name: e.name, isRange: e instanceof RangeError, code: e.code };
        }
      },
    });
    (mod['look'] as (f: () => void) => void)(() => {
      throw Object.assign(new RangeError('the budget is spent'), { code: 'E_BUDGET' });
    });
    expect(seen).toMatchObject({ message: 'the budget is spent', name: 'RangeError', isRange: true, code: 'E_BUDGET' });
    expect(seen!.stack).toBe('RangeError: the budget is spent\n    at <the tests>');
    expect(seen!.stack).not.toContain('membrane-stacks.test.ts');
    expect(seen!.stack).not.toContain(process.cwd());
  });

  test('an error sent back to the tests is their own again, with its stack', () => {
    const mod = pair({ give: (e: Error) => e });
    const mine = new TypeError('mine');
    const back = (mod['give'] as (e: Error) => Error)(mine);
    expect(back).toBe(mine);
    expect(back.stack).toContain('membrane-stacks.test.ts');
  });

  test("the learner's own errors keep their stacks for the tests (the report shows where it threw)", () => {
    const mod = pair({
      fail: () => {
        throw new Error('learner side');
      },
    });
    let stack = '';
    try {
      (mod['fail'] as () => void)();
    } catch (error) {
      stack = String((error as Error).stack);
    }
    expect(stack).toContain('learner side');
    expect(stack).toContain('membrane-stacks.test.ts');
  });
});
