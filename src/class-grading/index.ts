// Grading a whole class from the command line (`npm run grade-class`): pure checks, rows and
// rendering, the orchestration over a narrow IO adapter, the Node adapter and the sandbox choice.
export { cm, say, classMessages, type ClassKey, type Lang, type Message } from './messages.ts';
export {
  loadSubmission,
  keepLatestPerLearner,
  sharedClaims,
  UnreadableSubmission,
  learnerKey,
  type Rejected,
  type SubmissionFile,
  type AssignedExercise,
  type Loaded,
} from './submission.ts';
export {
  gradebookRows,
  ruleFailureCounts,
  learnerGrade,
  learnerShares,
  learnerProblems,
  exercisesPassed,
  gradingFailed,
  inConflict,
  failingRules,
  scoreQuizzes,
  isSubmissionLate,
  type ClassContext,
  type LearnerResult,
  type ExerciseOutcome,
  type QuizOutcome,
  type ExerciseRuleCounts,
} from './results.ts';
export { csvCell, toCsv, parseCsv } from './csv.ts';
export { escapeHtml, renderReport } from './html.ts';
export { gradeClass, assignedExercises, type ClassGradingIO, type ClassGrading, type ProgressEvent } from './grade-class.ts';
export { classSummary } from './summary.ts';
export { codeToReview } from './review.ts';
export { neutral, excerpt, shownFile, shownLearner } from './neutral.ts';
export type { Flag } from './flags.ts';
export { createSubmissionSandbox, defaultJobs, sandboxText, type SandboxFactory, type SandboxChoice, type SandboxModule } from './sandbox.ts';
export {
  readAssignmentFile,
  loadClassContext,
  nodeClassIO,
  readRegularFile,
  defaultOutDir,
  writeOutputs,
  filesNotRead,
  previousFolderName,
  extractSubmissionsZip,
} from './node-io.ts';
export { readSubmissionsZip, flatName, MAX_ZIP_BYTES, MAX_ZIP_ENTRIES, type NotRead } from './zip-submissions.ts';
export { feedbackFiles, feedbackHtml, feedbackMarkdown } from './feedback.ts';
export { strictClassIO, type StrictClassIO } from './strict-io.ts';
export { heldFromLms, lmsRows, LMS_FORMATS, type LmsFormat } from './exports.ts';
export { parseShard, shardOf, mergeShards, toShardFile, type Shard, type ShardFile, type MergeProblem } from './shard.ts';
export type { StrictlyGraded } from './grade-class.ts';
