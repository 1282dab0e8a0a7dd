import { describe, expect, it } from 'vitest';
import { assertionSentence, readAssertion } from './assertion-text.ts';

const s = { equal: 'wanted {expected}, got {actual}', notEqual: 'not {expected}', compare: '{actual} not {op} {expected}', check: 'check failed' };

describe('readAssertion', () => {
  it('reads the two values of an equality vitest reports', () => {
    expect(readAssertion('expected 408 to be 200 // Object.is equality')).toEqual({ kind: 'equal', actual: '408', expected: '200' });
    expect(readAssertion("the status: expected 'a' to deeply equal 'b'")).toEqual({ kind: 'equal', actual: "'a'", expected: "'b'" });
    expect(readAssertion('expected [ 1, 2 ] to strictly equal [ 1 ]')).toEqual({ kind: 'equal', actual: '[ 1, 2 ]', expected: '[ 1 ]' });
  });

  it('reads negations and comparisons', () => {
    expect(readAssertion('expected 3 not to be 3 // Object.is equality')).toEqual({ kind: 'not-equal', expected: '3' });
    expect(readAssertion('expected 5 to be greater than 6')).toEqual({ kind: 'compare', actual: '5', op: '>', expected: '6' });
    expect(readAssertion('expected 7 to be less than or equal to 6')).toEqual({ kind: 'compare', actual: '7', op: '≤', expected: '6' });
  });

  it("takes false-to-be-true after the test's own sentence as that sentence's check", () => {
    expect(readAssertion('with "1e3": the budget was 3 ms: expected false to be true // Object.is equality')).toEqual({
      kind: 'check',
      because: 'with "1e3": the budget was 3 ms',
    });
    // Without a sentence of the test's own, the values are all there is.
    expect(readAssertion('expected false to be true // Object.is equality')).toEqual({ kind: 'equal', actual: 'false', expected: 'true' });
  });

  it('reads the last line, and nothing of another shape', () => {
    expect(readAssertion('first line\nexpected 1 to be 2')).toEqual({ kind: 'equal', actual: '1', expected: '2' });
    expect(readAssertion('TypeError: fetch is not a function')).toBeUndefined();
    expect(readAssertion('expected "spy" to be called 1 times, but got 0 times')).toBeUndefined();
  });
});

describe('assertionSentence', () => {
  it('fills the catalogue sentence', () => {
    expect(assertionSentence('expected 408 to be 200 // Object.is equality', s)).toBe('wanted 200, got 408');
    expect(assertionSentence('expected 5 to be greater than 6', s)).toBe('5 not > 6');
    expect(assertionSentence('m: expected false to be true', s)).toBe('check failed');
    expect(assertionSentence('boom', s)).toBeUndefined();
  });
});
