/**
 * Whether the built site publishes the reference solutions ("Show solution" and the `solution` of
 * /exercise-bundles/<id>.json). Read once per build from the environment: `COURSE_HIDE_SOLUTIONS=1
 * npm run build` makes a site for a course under assessment, without them. The hidden tests stay
 * published either way: the page needs them to grade (docs/assignments.md, "What a static site
 * cannot hide").
 */
export const HIDE_SOLUTIONS_ENV = 'COURSE_HIDE_SOLUTIONS';

export function solutionsPublished(env: Record<string, string | undefined> = process.env): boolean {
  return env[HIDE_SOLUTIONS_ENV] !== '1';
}
