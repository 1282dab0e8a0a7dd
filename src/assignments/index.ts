export * from './file-schemas.ts';
export { encodeAssignment, decodeAssignment, assignmentLink, type DecodedAssignment } from './link.ts';
export { zonedTimeToIso, zoneOffsetMinutes, localTimeZone, currentZoneName, isLate, formatDue } from './due.ts';
export { buildSubmission, itemsWithoutWork, submissionFileNameFor, type SubmissionInput, type BuiltSubmission } from './submission.ts';
