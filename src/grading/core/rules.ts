// Rule ids in test names ("R2: …"): which rule a test belongs to, their order, and the check that
// every declared rule has a test and every test a declared rule.
import { RULE_ID } from './exercise-schema.ts';

/** The rule id a test name starts with (`R7 waits …` → `R7`), or undefined. */
export function ruleOf(testName: string): string | undefined {
  const first = testName.trim().split(/\s+/, 1)[0] ?? '';
  return RULE_ID.test(first) ? first : undefined;
}

/** Orders rule ids as the briefs list them: by letter, then by number (R2 before R10). */
export function compareRuleIds(a: string, b: string): number {
  const split = (rule: string) => [rule.replace(/\d+$/, ''), Number(/\d+$/.exec(rule)?.[0] ?? 0)] as const;
  const [pa, na] = split(a);
  const [pb, nb] = split(b);
  return pa === pb ? na - nb : pa < pb ? -1 : 1;
}

// test('…'), it.concurrent('…'), test.each(cases)('…'), test.for([[1, 2]])('…')
const TEST_CALL =
  /\b(?:test|it)(?:\.(?:concurrent|sequential|fails|skip|only))*(?:\.(?:each|for)\((?:[^()]|\((?:[^()]|\([^()]*\))*\))*\))?\(\s*(['"`])((?:\\.|(?!\1).)*)\1/g;

/** Names of the tests declared in a test file's source, in order (string literals only). */
export function testNamesIn(source: string): string[] {
  return [...source.matchAll(TEST_CALL)].map((m) => m[2]!);
}

/** What is wrong between the rules an exercise declares and the rules its tests check. */
export function ruleCoverageProblems(declared: string[], testNames: string[]): string[] {
  const problems: string[] = [];
  const tested = new Set<string>();
  for (const name of testNames) {
    const rule = ruleOf(name);
    if (!rule) problems.push(`test "${name}" does not start with a rule id and a space`);
    else tested.add(rule);
  }
  const known = new Set(declared);
  for (const rule of tested) if (!known.has(rule)) problems.push(`rule ${rule} is tested but has no entry in exercise.json`);
  for (const rule of declared) if (!tested.has(rule)) problems.push(`rule ${rule} has no test`);
  return problems;
}
