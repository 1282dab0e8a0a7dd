// The public surface of assignments/: a teacher's assignment as a link, its due time, and the submission a learner hands in.
export * from './file-schemas.ts';
export { encodeAssignment, decodeAssignment, assignmentLink, type DecodedAssignment } from './link.ts';
export { zonedTimeToIso, zoneOffsetMinutes, localTimeZone, currentZoneName, isLate, formatDue } from './due.ts';
export { buildSubmission, itemsWithoutWork, submissionFileNameFor, type SubmissionInput, type BuiltSubmission } from './submission.ts';
export * from './grading-model.ts';
