// What the page needs of the grading engine to grade in a WebContainer: the browser-safe core only.
export { GradeInputError, gradeWith } from '../grading/core/index.ts';
export type { ExerciseBundle, ExerciseSource, Lang, Report, RunOptions, RunResult, Sandbox, TestReport } from '../grading/core/index.ts';
