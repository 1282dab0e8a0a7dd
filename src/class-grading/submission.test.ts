import { describe, expect, it } from 'vitest';
import { MAX_SUBMISSION_BYTES } from '../assignments/file-schemas.ts';
import { cm } from './messages.ts';
import { keepLatestPerLearner, loadSubmission, sharedClaims, type Loaded } from './submission.ts';
import { makeAssignment, makeSubmission } from './testing/test-fixtures.ts';

const assignment = makeAssignment();
const exercises = { 'retry-helper': { editable: ['retry.ts'] } };
const an = { name: 'Nguyễn Văn An', email: 'an@example.com' };
const good = makeSubmission(assignment, an, { 'retry-helper': { 'retry.ts': 'export {}' } });

function load(data: unknown, name = 'x.json'): Loaded {
  const text = typeof data === 'string' ? data : JSON.stringify(data);
  return loadSubmission({ name, size: Buffer.byteLength(text), read: () => text }, assignment, exercises);
}
const reason = (l: Loaded, lang: 'en' | 'vi' = 'en') => (l.ok ? 'accepted' : cm(lang, l.rejected.reason.key, l.rejected.reason.params));

describe('loading a submission file', () => {
  it('accepts a good one', () => {
    const loaded = load(good);
    expect(loaded.ok).toBe(true);
    if (loaded.ok) expect(loaded.submission.learner).toEqual(an);
  });

  it('refuses an oversized file before reading it', () => {
    let read = false;
    const loaded = loadSubmission({ name: 'big.json', size: MAX_SUBMISSION_BYTES + 1, read: () => ((read = true), '{}') }, assignment, exercises);
    expect(read).toBe(false);
    expect(reason(loaded)).toContain(`over the ${MAX_SUBMISSION_BYTES}-byte limit`);
  });

  it('names each kind of bad input', () => {
    expect(reason(load('{"format": "course-submission",'))).toBe('not valid JSON (the first error is near character 31)');
    expect(reason(load({ ...good, format: 'course-progress' }))).toBe('not a submission file (its "format" is not "course-submission")');
    expect(reason(load([1, 2]))).toContain('not a submission file');
    expect(reason(load({ ...good, version: 2 }))).toContain('version 2 is not supported');
    expect(reason(load({ ...good, exercises: { 'retry-helper': { files: { '../x': 'evil' } } } }))).toContain('exercise retry-helper names a file by a path');
    expect(reason(load({ ...good, exercises: { 'retry-helper': { files: { '/etc/x': 'evil' } } } }))).toContain('names a file by a path');
    expect(reason(load({ ...good, assignmentId: 'asg-other' }))).toContain('another assignment (asg-other; this one is asg-test-class)');
    expect(reason(load({ ...good, exercises: { 'deadline-middleware': { files: { 'deadline.ts': '' } } } }))).toContain(
      'exercise deadline-middleware, which is not part of this assignment',
    );
    expect(reason(load({ ...good, quizzes: { 'timeouts-quiz': { answers: {} } } }))).toContain('quiz timeouts-quiz, which is not part');
    expect(reason(load({ ...good, exercises: { 'retry-helper': { files: { 'retry.ts': '', 'notes.ts': '' } } } }))).toContain(
      'exercise retry-helper has no file notes.ts (it takes retry.ts)',
    );
    expect(reason(load({ ...good, exercises: { 'retry-helper': { files: {} } } }))).toContain('lacks its file retry.ts');
    expect(reason(load({ ...good, learner: { name: 'An', email: 'not-an-email' } }))).toBe(
      'the submission is damaged or incomplete (learner.email: invalid format)',
    );
    expect(reason(load({ ...good, clientResults: undefined }))).toMatch(/damaged or incomplete/);
  });

  it('keeps the learner on a refusal when the file names one, and speaks Vietnamese', () => {
    const loaded = load({ ...good, assignmentId: 'asg-other' });
    expect(!loaded.ok && loaded.rejected.learner).toEqual(an);
    expect(reason(load('nope'), 'vi')).toMatch(/^không phải JSON hợp lệ/);
  });
});

// The attacks: a file meant to stop the whole class's grading, or to write its own bytes (or those of
// a file it points to) into the gradebook and report through the rejection reason.
describe('a hostile file is only ever its own refusal', () => {
  const deep = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;

  it('a "format" nested thousands deep (10 KB) is refused, not a stack overflow', () => {
    const text = `{"format":${deep(5000)},"version":1}`;
    expect(text.length).toBeLessThan(11_000);
    expect(reason(load(text))).toBe('not a submission file (its "format" is not "course-submission")');
  });

  it('deep nesting anywhere else is refused with a reason, and nothing throws', () => {
    for (const field of ['version', 'learner', 'exercises', 'quizzes', 'clientResults', 'assignmentId']) {
      const text = JSON.stringify({ ...good, [field]: 0 }).replace(`"${field}":0`, `"${field}":${deep(5000)}`);
      const loaded = load(text);
      expect(loaded.ok, field).toBe(false);
    }
  });

  it('a reader that throws (or any check that does) becomes that file’s refusal', () => {
    const loaded = loadSubmission(
      {
        name: 'x.json',
        size: 10,
        read: () => {
          throw new RangeError('Maximum call stack size exceeded');
        },
      },
      assignment,
      exercises,
    );
    expect(reason(loaded)).toBe(
      'checking this file failed (RangeError: for example data nested too deeply); it is set aside and the rest of the class is graded',
    );
  });

  it('no reason quotes the file’s bytes', () => {
    const secret = 'root:$6$hash:0:0';
    const texts = [
      `{"a": ${secret}}`,
      JSON.stringify({ ...good, format: secret }),
      JSON.stringify({ ...good, version: secret }),
      JSON.stringify({ ...good, exercises: { [secret]: { files: { [`../${secret}`]: '' } } } }),
      JSON.stringify({ ...good, exercises: { 'retry-helper': { files: { 'retry.ts': '' } }, [secret]: { files: {} } } }),
      JSON.stringify({ ...good, learner: { name: 'A', email: 'a@x.co', [secret]: 1 } }),
      JSON.stringify({ ...good, quizzes: { q: { answers: { [secret]: { type: secret } } } } }),
    ];
    for (const text of texts) {
      const loaded = load(text);
      expect(loaded.ok).toBe(false);
      for (const lang of ['en', 'vi'] as const) expect(reason(loaded, lang)).not.toMatch(/root|hash/);
    }
  });
});

describe('one submission per learner', () => {
  it('files claiming one learner are all named as a conflict: none replaces another', () => {
    const real = makeSubmission(assignment, an, {}, { exportedAt: '2026-11-30T01:00:00.000Z' });
    const impostor = makeSubmission(assignment, { name: 'An', email: 'AN@example.com' }, {}, { exportedAt: '2026-11-30T09:00:00.000Z' });
    const other = makeSubmission(assignment, { name: 'Bình', email: 'binh@example.com' }, {});
    const claims = sharedClaims([
      { file: 'an.json', submission: real },
      { file: 'zz.json', submission: impostor },
      { file: 'binh.json', submission: other },
    ]);
    expect(Object.fromEntries(claims)).toEqual({ 'an.json': ['zz.json'], 'zz.json': ['an.json'] });
  });

  it('with --latest-wins, grades the latest export of an e-mail address (case-insensitive) and says which file was kept', () => {
    const early = makeSubmission(assignment, an, {}, { exportedAt: '2026-11-30T01:00:00.000Z' });
    const late = makeSubmission(assignment, { ...an, email: 'AN@example.com' }, {}, { exportedAt: '2026-11-30T02:00:00.000Z' });
    const other = makeSubmission(assignment, { name: 'Bình', email: 'binh@example.com' }, {});
    const { kept, superseded } = keepLatestPerLearner([
      { file: 'b.json', submission: late },
      { file: 'a.json', submission: early },
      { file: 'c.json', submission: other },
    ]);
    expect(kept.map((k) => k.file)).toEqual(['b.json', 'c.json']);
    expect(superseded).toHaveLength(1);
    expect(superseded[0]!.file).toBe('a.json');
    expect(cm('en', superseded[0]!.reason.key, superseded[0]!.reason.params)).toBe(
      'an@example.com also handed in b.json, exported later (2026-11-30T02:00:00.000Z); with --latest-wins only the latest export of each learner is graded',
    );
  });

  it('breaks a tie on export time by file name, whatever order the disk lists them in', () => {
    const s = makeSubmission(assignment, an, {});
    for (const order of [
      ['x.json', 'y.json'],
      ['y.json', 'x.json'],
    ]) {
      const { kept } = keepLatestPerLearner(order.map((file) => ({ file, submission: s })));
      expect(kept.map((k) => k.file)).toEqual(['y.json']);
    }
  });
});
