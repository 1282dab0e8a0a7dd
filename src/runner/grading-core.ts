// The browser-safe part of the grading engine (src/grading/index.ts also pulls in node: modules).
// Everything the page needs to grade in a WebContainer comes through here.
export { gradeWith } from '../grading/grade.ts';
export { GradeInputError } from '../grading/files.ts';
export type { Lang, Report, RunOptions, RunResult, Sandbox, TestReport } from '../grading/types.ts';
export type { ExerciseBundle, ExerciseSource } from '../grading/source.ts';
