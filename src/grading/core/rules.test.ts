import { describe, expect, test } from 'vitest';
import { compareRuleIds, ruleCoverageProblems, ruleOf, testNamesIn } from './rules.ts';

describe('rules', () => {
  test('compareRuleIds orders by letter, then by number', () => {
    expect(['S10', 'S2', 'R1', 'S1', 'D12', 'D3'].sort(compareRuleIds)).toEqual(['D3', 'D12', 'R1', 'S1', 'S2', 'S10']);
  });

  test('ruleOf reads the rule id at the start of a test name', () => {
    expect(ruleOf('R7 waits the full-jitter delay')).toBe('R7');
    expect(ruleOf('D12 resolves whatever the status')).toBe('D12');
    expect(ruleOf('R7: waits')).toBeUndefined();
    expect(ruleOf('waits R7')).toBeUndefined();
    expect(ruleOf('r7 waits')).toBeUndefined();
  });

  test('testNamesIn finds test and it calls with any quote', () => {
    const src = `test('R1 a', () => {});\n  it("R2 b", async () => {});\ntest(\`R3 c's\`, () => {});\ntest.concurrent('R4 d', () => {});\nprotest('x')\ntest.each(cases)('R5 e (%s)', () => {});\nit.for([[1, f(2)], [3, 4]])('R6 f', () => {});`;
    expect(testNamesIn(src)).toEqual(['R1 a', 'R2 b', "R3 c's", 'R4 d', 'R5 e (%s)', 'R6 f']);
  });

  test('coverage problems: untested rule, unknown rule, unnamed test', () => {
    expect(ruleCoverageProblems(['R1', 'R2'], ['R1 a', 'R1 b', 'R2 c'])).toEqual([]);
    expect(ruleCoverageProblems(['R1', 'R2'], ['R1 a', 'R3 x', 'no rule'])).toEqual([
      'test "no rule" does not start with a rule id and a space',
      'rule R3 is tested but has no entry in exercise.json',
      'rule R2 has no test',
    ]);
  });
});
