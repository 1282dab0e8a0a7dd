import { afterEach, describe, expect, it } from 'vitest';
import { clientBundle } from './exercise-files.ts';
import { HIDE_SOLUTIONS_ENV, solutionsPublished } from './solutions-policy.ts';

const saved = process.env[HIDE_SOLUTIONS_ENV];
afterEach(() => {
  if (saved === undefined) delete process.env[HIDE_SOLUTIONS_ENV];
  else process.env[HIDE_SOLUTIONS_ENV] = saved;
});

describe('a site built without the solutions', () => {
  it('publishes them unless COURSE_HIDE_SOLUTIONS=1', () => {
    expect(solutionsPublished({})).toBe(true);
    expect(solutionsPublished({ COURSE_HIDE_SOLUTIONS: '0' })).toBe(true);
    expect(solutionsPublished({ COURSE_HIDE_SOLUTIONS: '1' })).toBe(false);
  });

  it('leaves the solution out of the exercise bundle, and only it: the hidden tests stay, the page needs them', () => {
    delete process.env[HIDE_SOLUTIONS_ENV];
    const published = clientBundle('retry-helper');
    expect(Object.keys(published.solution)).toContain('retry.ts');
    process.env[HIDE_SOLUTIONS_ENV] = '1';
    const withheld = clientBundle('retry-helper');
    expect(withheld.solution).toEqual({});
    expect(withheld.tests).toEqual(published.tests);
    expect(Object.keys(withheld.tests).length).toBeGreaterThan(0);
    expect(JSON.stringify(withheld)).not.toContain(published.solution['retry.ts']!.slice(0, 200));
  });
});
