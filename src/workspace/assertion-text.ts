/**
 * What a failed assertion said, as a sentence in the learner's language. Pure.
 *
 * vitest (chai) words a failure as `expected 408 to be 200 // Object.is equality`, after the
 * test's own explanation when it gave one (`with "1e3": …: expected false to be true`). The suites
 * explain in English, and vitest's wording stays the detail shown under the sentence; this reads
 * the values out of vitest's last clause so that the page can say, in its language, what the test
 * expected and what it got. A message of another shape gets no sentence (undefined), only its label.
 */

export type Assertion =
  /** `expected A to be B`, `to equal`, `to deeply equal`, `to strictly equal`. */
  | { kind: 'equal'; actual: string; expected: string }
  /** The same, negated: `expected A not to be B`. */
  | { kind: 'not-equal'; expected: string }
  /** `expected A to be greater than B` and the other three comparisons. */
  | { kind: 'compare'; actual: string; op: '>' | '<' | '≥' | '≤'; expected: string }
  /** `message: expected false to be true`: a condition the test checked, explained by the message. */
  | { kind: 'check'; because: string };

const OPS: Record<string, '>' | '<' | '≥' | '≤'> = {
  'greater than': '>',
  'less than': '<',
  'greater than or equal to': '≥',
  'less than or equal to': '≤',
  above: '>',
  below: '<',
  'at least': '≥',
  'at most': '≤',
};

const CLAUSE =
  /^(?:([\s\S]*): )?expected ([\s\S]+?) (not )?to (be (?:greater|less) than or equal to|be (?:greater|less) than|be (?:above|below|at least|at most)|deeply equal|strictly equal|equal|be) ([\s\S]+?)(?: \/\/ Object\.is equality)?$/;

/** Words chai puts after "to be" that are not a value: `to be called 1 times`, `to be an instance of`, `to be defined`. */
const NOT_A_VALUE = /^(?:called|defined|truthy|falsy|an? |type of|close to|one of|instance)/;

/** The assertion in vitest's message (its last line), or undefined when it is not one of the shapes above. */
export function readAssertion(details: string): Assertion | undefined {
  const line = details.trim().split('\n').at(-1)!.trim();
  const m = CLAUSE.exec(line);
  if (!m) return undefined;
  const [, because, actual, not, verb, expected] = m as unknown as [string, string | undefined, string, string | undefined, string, string];
  if (verb.startsWith('be ') && verb !== 'be') {
    if (not) return undefined;
    return { kind: 'compare', actual, op: OPS[verb.slice(3)]!, expected };
  }
  if (verb === 'be' && NOT_A_VALUE.test(expected)) return undefined;
  if (not) return { kind: 'not-equal', expected };
  // `expected false to be true` says nothing by itself: the test's own sentence is the reason.
  if (because && ((actual === 'false' && expected === 'true') || (actual === 'true' && expected === 'false'))) return { kind: 'check', because };
  return { kind: 'equal', actual, expected };
}

/** The catalogue strings the sentence is made from (ws.* in the page, check.* in the CLI). */
export interface AssertionStrings {
  /** `{expected}`, `{actual}` */
  equal: string;
  /** `{expected}` */
  notEqual: string;
  /** `{op}`, `{expected}`, `{actual}` */
  compare: string;
  check: string;
}

const fill = (text: string, vars: Record<string, string>) => text.replace(/\{(\w+)\}/g, (whole, k: string) => vars[k] ?? whole);

/** The sentence that frames vitest's message, or undefined when its shape is not known. */
export function assertionSentence(details: string, s: AssertionStrings): string | undefined {
  const a = readAssertion(details);
  if (!a) return undefined;
  switch (a.kind) {
    case 'equal':
      return fill(s.equal, { expected: a.expected, actual: a.actual });
    case 'not-equal':
      return fill(s.notEqual, { expected: a.expected });
    case 'compare':
      return fill(s.compare, { op: a.op, expected: a.expected, actual: a.actual });
    case 'check':
      return s.check;
  }
}
