// The grading core: pure, and importable by the browser (the worker runner, the WebContainer runner,
// the workspace): report mapping, rules, the exercise schema, messages, and gradeWith over any Sandbox.
// No node: module and nothing from ../node/ (src/grading/core/core-boundary.test.ts checks).
export type * from './types.ts';
export type { Exercise, ExerciseRule, LocalText } from './exercise-schema.ts';
export { exerciseSchema, parseExercise } from './exercise-schema.ts';
export type { ExerciseBundle, ExerciseSource } from './source.ts';
export { ENV_FILES, EVENTS_FILE, parseTestList, PROGRESS_FILE, TEST_LIST } from './source.ts';
export type { GradeOptions, GradeRequest, TypeCheckCommand } from './grade.ts';
export { gradeWith, VITEST_ARGS, WARM_SCRIPT } from './grade.ts';
export { mapReport } from './map-report.ts';
export { GradeInputError, editablePaths, validateLearnerFiles } from './files.ts';
export { locateError, parseTscOutput } from './location.ts';
export { compareRuleIds, ruleOf, testNamesIn, ruleCoverageProblems } from './rules.ts';
export { cap, stripAnsi } from './cap.ts';
export { t } from './messages.ts';
export { parseJsonLines, type ProgressEvent, type ReporterEvent, type SerializedError } from './events.ts';
export { startWatchdog } from './watchdog.ts';
