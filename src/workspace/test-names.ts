/**
 * The Vietnamese name of a hidden test, from exercises/<id>/test-names.vi.json. Pure.
 *
 * The suites name their tests in English. A test with a fixed name is translated by its name. A
 * parameterized test (`test.for(cases)('D1 treats x-deadline-ms: %s as absent', …)`) reaches the
 * report with its parameters filled in by vitest ("D1 treats x-deadline-ms: "1e3" (exponent) as
 * absent"), so its entry is keyed by the template as written in the suite, and the Vietnamese
 * template uses the same placeholders in the same order:
 *
 *   "D1 treats x-deadline-ms: %s as absent": "D1 coi x-deadline-ms: %s như không có"
 *
 * The values the report carries are put into the Vietnamese template. A value that is itself an
 * English phrase (a case's label such as `of 129 characters`) can be translated by an entry keyed
 * `=` and the value: `"=of 129 characters": "dài 129 ký tự"`. Any exercise gets this by listing its
 * templates; nothing here knows one exercise from another.
 */

export type TestNames = Readonly<Record<string, string>>;

/** vitest's placeholders in a test's name: printf-style (`%s %d %i %f %j %o %O %#`) and `$name` for object cases. */
const PLACEHOLDER = /%[sdifjoO#]|\$[A-Za-z_][\w.]*/g;

/** The placeholders of a name, in order (`%%`, a literal percent sign, is none). */
export function placeholders(template: string): string[] {
  return [...template.replace(/%%/g, '').matchAll(PLACEHOLDER)].map((m) => m[0]);
}

export const isTemplate = (name: string): boolean => placeholders(name).length > 0;

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A pattern that matches the names vitest makes from a template, capturing each filled-in value. */
function patternOf(template: string): RegExp {
  let source = '';
  let last = 0;
  for (const m of template.matchAll(/%%|%[sdifjoO#]|\$[A-Za-z_][\w.]*/g)) {
    source += escapeRegExp(template.slice(last, m.index));
    source += m[0] === '%%' ? '%' : '(.*?)';
    last = m.index + m[0].length;
  }
  source += escapeRegExp(template.slice(last));
  return new RegExp(`^${source}$`, 's');
}

const patterns = new WeakMap<TestNames, Array<{ pattern: RegExp; vi: string }>>();

function templatesOf(names: TestNames) {
  let list = patterns.get(names);
  if (!list) {
    list = Object.entries(names)
      .filter(([en]) => !en.startsWith('=') && isTemplate(en))
      // The longest template first: of two that match, the one with more fixed words is meant.
      .sort(([a], [b]) => b.length - a.length)
      .map(([en, vi]) => ({ pattern: patternOf(en), vi }));
    patterns.set(names, list);
  }
  return list;
}

/** Puts `values` into the Vietnamese template's placeholders, in order; each translated if the list has it. */
function fillTemplate(vi: string, values: string[], names: TestNames): string {
  let i = 0;
  return vi.replace(/%%|%[sdifjoO#]|\$[A-Za-z_][\w.]*/g, (token) => {
    if (token === '%%') return '%';
    const value = values[i++] ?? token;
    return names[`=${value}`] ?? value;
  });
}

/** The Vietnamese name of the test vitest reported as `name`, or undefined when the list has none. */
export function localTestName(name: string, names: TestNames): string | undefined {
  const exact = names[name];
  if (exact !== undefined && !isTemplate(name)) return exact;
  for (const { pattern, vi } of templatesOf(names)) {
    const m = pattern.exec(name);
    if (m) return fillTemplate(vi, m.slice(1), names);
  }
  return exact;
}
