import { describe, expect, it } from 'vitest';
import { assignmentSchema, submissionSchema, type Assignment } from './file-schemas.ts';
import { assignmentLink, decodeAssignment, encodeAssignment, isLocalHost, siteOrigin } from './link.ts';
import { currentZoneName, formatDue, isLate, zonedTimeToIso } from './due.ts';
import { buildSubmission, submissionFileNameFor } from './submission.ts';
import { emptyProgress } from '../progress/schema.ts';

const assignment: Assignment = {
  format: 'course-assignment',
  version: 1,
  id: 'asg-20261201-k3x9',
  title: 'Tuần 3: retry và deadline',
  className: 'Backend K12',
  due: '2026-12-01T23:59:00+07:00',
  timeZone: 'Asia/Ho_Chi_Minh',
  modules: ['deadlines'],
  exercises: ['deadline-middleware', 'retry-helper'],
  quizzes: ['deadlines-quiz'],
  createdAt: '2026-11-29T10:00:00.000Z',
};

describe('assignment files', () => {
  it('accepts the format of the issue', () => {
    expect(assignmentSchema.parse(assignment)).toEqual(assignment);
  });

  it.each([
    ['a due date without an offset', { due: '2026-12-01T23:59:00' }],
    ['an unknown time zone', { timeZone: 'Mars/Olympus' }],
    ['no items', { exercises: [], quizzes: [] }],
    ['a repeated item', { quizzes: ['deadlines-quiz', 'deadlines-quiz'] }],
    ['an empty title', { title: '   ' }],
    ['another format', { format: 'course-submission' }],
    ['another version', { version: 2 }],
    ['an unknown field', { grader: 'me' }],
  ])('rejects %s', (_, change) => {
    expect(assignmentSchema.safeParse({ ...assignment, ...change }).success).toBe(false);
  });

  it('takes labs to open (not graded), even alone, by their simulation id', () => {
    expect(assignmentSchema.parse({ ...assignment, labs: ['amplification'] }).labs).toEqual(['amplification']);
    expect(assignmentSchema.safeParse({ ...assignment, exercises: [], quizzes: [], labs: ['retry-storm'] }).success).toBe(true);
    expect(assignmentSchema.safeParse({ ...assignment, exercises: [], quizzes: [], labs: [] }).success).toBe(false);
    expect(assignmentSchema.safeParse({ ...assignment, labs: ['Retry Storm'] }).success).toBe(false);
    expect(assignmentSchema.safeParse({ ...assignment, labs: ['amplification', 'amplification'] }).success).toBe(false);
    expect(assignmentSchema.safeParse({ ...assignment, labs: ['amplification'], points: { amplification: 5 } }).success).toBe(false); // no points for a lab
  });

  it('takes lessons to read (not graded), even alone, by their <module>/<slug> id', () => {
    expect(assignmentSchema.parse({ ...assignment, lessons: ['deadlines/deadline-vs-timeout'] }).lessons).toEqual(['deadlines/deadline-vs-timeout']);
    expect(assignmentSchema.safeParse({ ...assignment, exercises: [], quizzes: [], lessons: ['deadlines/fan-out'] }).success).toBe(true);
    expect(assignmentSchema.safeParse({ ...assignment, lessons: ['deadline-vs-timeout'] }).success).toBe(false);
    expect(assignmentSchema.safeParse({ ...assignment, lessons: ['deadlines/fan-out', 'deadlines/fan-out'] }).success).toBe(false);
  });

  it('travels in the URL fragment, Vietnamese text included, and comes back the same', () => {
    const link = assignmentLink('https://course.example', 'vi', assignment);
    expect(link).toMatch(/^https:\/\/course\.example\/vi\/assignment\/#a=[A-Za-z0-9_-]+$/);
    expect(decodeAssignment(new URL(link).hash)).toEqual({ ok: true, assignment });
  });

  it('says why a fragment cannot be read', () => {
    expect(decodeAssignment('')).toEqual({ ok: false, reason: 'missing' });
    expect(decodeAssignment('#a=%%%not-base64')).toEqual({ ok: false, reason: 'unreadable' });
    const tampered = encodeAssignment({ ...assignment, due: 'tomorrow' } as Assignment);
    expect(decodeAssignment(`#${tampered}`)).toEqual({ ok: false, reason: 'invalid' });
  });
});

describe('due dates', () => {
  it('writes the wall-clock time with the zone’s offset, daylight saving included', () => {
    expect(zonedTimeToIso('2026-12-01T23:59', 'Asia/Ho_Chi_Minh')).toBe('2026-12-01T23:59:00+07:00');
    expect(zonedTimeToIso('2026-07-01T09:00', 'Europe/London')).toBe('2026-07-01T09:00:00+01:00');
    expect(zonedTimeToIso('2026-01-15T09:00', 'Europe/London')).toBe('2026-01-15T09:00:00+00:00');
    expect(zonedTimeToIso('2026-03-10T17:30', 'America/St_Johns')).toBe('2026-03-10T17:30:00-02:30');
    expect(zonedTimeToIso('2026-02-30T10:00', 'UTC')).toBeUndefined();
    // Clocks going forward, west and east of UTC: a skipped time lands after the jump, never before it.
    expect(zonedTimeToIso('2026-03-08T02:30', 'America/New_York')).toBe('2026-03-08T03:30:00-04:00');
    expect(zonedTimeToIso('2026-09-06T00:00', 'America/Santiago')).toBe('2026-09-06T01:00:00-03:00');
    expect(zonedTimeToIso('2026-03-29T01:30', 'Europe/London')).toBe('2026-03-29T02:30:00+01:00');
    expect(zonedTimeToIso('2026-10-04T02:15', 'Australia/Sydney')).toBe('2026-10-04T03:15:00+11:00');
    // Clocks going back: a time that happens twice is the first of the two, west and east of UTC.
    expect(zonedTimeToIso('2026-11-01T01:30', 'America/New_York')).toBe('2026-11-01T01:30:00-04:00');
    expect(zonedTimeToIso('2026-10-25T01:30', 'Europe/London')).toBe('2026-10-25T01:30:00+01:00');
    // Every minute of a year round-trips to the wall time asked for, unless the clocks skipped it.
    for (let day = 0; day < 365; day += 1) {
      const wall = new Date(Date.UTC(2026, 0, 1 + day, 12, 0)).toISOString().slice(0, 16);
      const iso = zonedTimeToIso(wall, 'America/Santiago')!;
      expect(iso.slice(0, 16)).toBe(wall);
    }
    expect(zonedTimeToIso('tomorrow', 'UTC')).toBeUndefined();
  });

  it('is late one minute after the due time, not before', () => {
    expect(isLate(assignment.due, new Date('2026-12-01T16:59:00Z'))).toBe(false);
    expect(isLate(assignment.due, new Date('2026-12-01T17:00:00Z'))).toBe(true);
  });

  it('names zones by their current IANA names, which Intl accepts', () => {
    expect(currentZoneName('Asia/Saigon')).toBe('Asia/Ho_Chi_Minh');
    expect(currentZoneName('Europe/Paris')).toBe('Europe/Paris');
    expect(zonedTimeToIso('2026-12-01T23:59', currentZoneName('Asia/Calcutta'))).toBe('2026-12-01T23:59:00+05:30');
  });

  it('shows the deadline in a given zone', () => {
    expect(formatDue(assignment.due, 'en', 'Asia/Ho_Chi_Minh')).toContain('23:59');
    expect(formatDue(assignment.due, 'en', 'UTC')).toContain('16:59');
  });
});

describe('submissions', () => {
  const progress = emptyProgress();
  const answers = { q1: { type: 'numeric' as const, value: '27' } };
  progress.quizzes['deadlines-quiz'] = {
    attempts: 2,
    best: { score: 6, total: 6, answers, at: '2026-11-29T09:00:00.000Z' },
    last: { score: 2, total: 6, answers: {}, at: '2026-11-29T09:30:00.000Z' },
  };
  const saved = {
    version: 1 as const,
    files: { 'deadline.ts': 'export const x = 1;\n', 'scratch.ts': 'not part of the exercise' },
    savedAt: '2026-11-29T09:00:00.000Z',
  };

  it('takes the saved code (only the exercise’s files) and the best quiz answers, and lists what is missing', () => {
    const built = buildSubmission({
      assignment,
      learner: { name: ' Nguyễn Văn An ', email: 'an@example.com' },
      progress,
      savedCode: (id) => (id === 'deadline-middleware' ? saved : undefined),
      exerciseFiles: { 'deadline-middleware': ['deadline.ts'], 'retry-helper': ['retry.ts'] },
      courseVersion: '0.1.0',
      now: new Date('2026-11-30T01:00:00.000Z'),
    });
    expect(built.submission).toEqual({
      format: 'course-submission',
      version: 1,
      assignmentId: assignment.id,
      learner: { name: 'Nguyễn Văn An', email: 'an@example.com' },
      exercises: { 'deadline-middleware': { files: { 'deadline.ts': 'export const x = 1;\n' } } },
      quizzes: { 'deadlines-quiz': { answers } },
      exportedAt: '2026-11-30T01:00:00.000Z',
      courseVersion: '0.1.0',
      solutionShown: [],
      clientResults: { exercises: {}, quizzes: { 'deadlines-quiz': { score: 6, total: 6, at: '2026-11-29T09:00:00.000Z' } } },
    });
    expect(built.missing).toEqual({ exercises: ['retry-helper'], quizzes: [] });
    expect(submissionSchema.parse(JSON.parse(built.json))).toEqual(built.submission);
    expect(built.tooBig).toBe(false);
    expect(submissionFileNameFor(assignment.id, built.submission.learner)).toBe('submission-asg-20261201-k3x9-an.json');
  });

  it('carries the given and family names and the student id as the learner typed them, when given', () => {
    const built = buildSubmission({
      assignment,
      learner: { name: 'Nguyễn Văn An', email: 'an@example.com', givenName: ' Văn An ', familyName: 'Nguyễn', studentId: 'SV-2026-001' },
      progress,
      savedCode: () => undefined,
      exerciseFiles: {},
      courseVersion: '0.1.0',
      lang: 'vi',
    });
    expect(built.submission.lang).toBe('vi'); // the learner's feedback is written in it
    expect(submissionSchema.safeParse({ ...built.submission, lang: 'fr' }).success).toBe(false);
    expect(built.submission.learner).toEqual({
      name: 'Nguyễn Văn An',
      email: 'an@example.com',
      givenName: 'Văn An',
      familyName: 'Nguyễn',
      studentId: 'SV-2026-001',
    });
    const learner = built.submission.learner;
    expect(submissionSchema.safeParse({ ...built.submission, learner: { ...learner, familyName: 'x'.repeat(101) } }).success).toBe(false);
    expect(submissionSchema.safeParse({ ...built.submission, learner: { ...learner, studentId: '  ' } }).success).toBe(false);
    expect(submissionSchema.safeParse({ ...built.submission, learner: { ...learner, nickname: 'An' } }).success).toBe(false);
  });

  it('says which assigned exercises had their solution revealed (an older file without the list still reads)', () => {
    const built = buildSubmission({
      assignment,
      learner: { name: 'An', email: 'an@example.com' },
      progress: { ...progress, solutionsShown: { 'retry-helper': '2026-11-29T09:40:00.000Z', backoff: '2026-11-29T09:41:00.000Z' } },
      savedCode: () => saved,
      exerciseFiles: {},
      courseVersion: '0.1.0',
    });
    expect(built.submission.solutionShown).toEqual(['retry-helper']); // backoff is not part of this assignment
    const { solutionShown: _, ...older } = built.submission;
    expect(submissionSchema.safeParse(older).success).toBe(true);
  });

  it.each([
    ['an invalid e-mail', { learner: { name: 'An', email: 'an@' } }],
    ['an empty name', { learner: { name: '', email: 'an@example.com' } }],
    ['a path in a file name', { exercises: { 'retry-helper': { files: { '../x': '' } } } }],
    ['an absolute file name', { exercises: { 'retry-helper': { files: { '/etc/x': '' } } } }],
  ])('refuses %s', (_, change) => {
    const base = {
      format: 'course-submission',
      version: 1,
      assignmentId: 'a1',
      learner: { name: 'An', email: 'an@example.com' },
      exercises: {},
      quizzes: {},
      exportedAt: '2026-11-30T01:00:00.000Z',
      courseVersion: '0.1.0',
      clientResults: { exercises: {}, quizzes: {} },
    };
    expect(submissionSchema.safeParse(base).success).toBe(true);
    expect(submissionSchema.safeParse({ ...base, ...change }).success).toBe(false);
  });

  it('refuses to build a submission for an invalid learner', () => {
    expect(() =>
      buildSubmission({ assignment, learner: { name: 'An', email: 'nope' }, progress, savedCode: () => undefined, exerciseFiles: {}, courseVersion: '0.1.0' }),
    ).toThrow();
  });
});

describe('the address learners are sent to', () => {
  it('knows an address of this machine, which a learner cannot open', () => {
    for (const host of ['localhost', '127.0.0.1', '127.1.2.3', '[::1]', '0.0.0.0', 'course.localhost']) expect(isLocalHost(host), host).toBe(true);
    for (const host of ['course.example.edu', 'localhost.example.com', '10.0.0.5']) expect(isLocalHost(host), host).toBe(false);
  });

  it('takes the deployed site’s address as the instructor typed it, with its base path, and nothing else', () => {
    expect(siteOrigin(' https://course.example.edu/ ')).toBe('https://course.example.edu');
    expect(siteOrigin('https://school.github.io/timeouts/')).toBe('https://school.github.io/timeouts');
    expect(siteOrigin('https://course.example.edu/?x=1#y')).toBe('https://course.example.edu');
    for (const bad of ['', 'course.example.edu', 'javascript:alert(1)', 'file:///etc/passwd']) expect(siteOrigin(bad), bad).toBeUndefined();
    expect(assignmentLink(siteOrigin('https://school.github.io/timeouts/')!, 'vi', assignment)).toMatch(
      /^https:\/\/school\.github\.io\/timeouts\/vi\/assignment\/#a=/,
    );
  });
});
