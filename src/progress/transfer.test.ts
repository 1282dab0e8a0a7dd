import { describe, expect, it } from 'vitest';
import { buildProgressFile, parseProgressFile, previewImport } from './transfer.ts';
import { emptyProgress, type Progress } from './schema.ts';

const quiz = (score: number, at: string) => ({ score, total: 8, answers: { q1: { type: 'single' as const, choice: 'a' } }, at });
const T1 = '2026-11-01T10:00:00.000Z';
const T2 = '2026-11-20T10:00:00.000Z';

function sample(): Progress {
  return {
    ...emptyProgress(),
    lessons: { 'timeouts/why-timeouts': { read: true, at: T1, by: 'button' } },
    quizzes: { 'timeouts-quiz': { attempts: 1, best: quiz(5, T1), last: quiz(5, T1) } },
  };
}

describe('progress files', () => {
  it('reads a file exported before labs were recorded (progress version 1), nothing lost', () => {
    const { labs: _none, ...v1 } = { ...sample(), version: 1 };
    const text = JSON.stringify({ format: 'course-progress', version: 1, exportedAt: T1, progress: v1, code: {} });
    const parsed = parseProgressFile(text);
    expect(parsed.ok && parsed.file.progress).toEqual(sample());
  });

  it('merges the labs opened on either side, the first opening kept', () => {
    const local = { ...sample(), labs: { amplification: { openedAt: T2 } } };
    const file = buildProgressFile({ ...sample(), labs: { amplification: { openedAt: T1 }, 'retry-storm': { openedAt: T2 } } }, {});
    expect(previewImport(local, {}, file).progress.labs).toEqual({ amplification: { openedAt: T1 }, 'retry-storm': { openedAt: T2 } });
  });

  it('round-trips an export', () => {
    const text = JSON.stringify(buildProgressFile(sample(), { 'retry-helper': { version: 1, files: { 'retry.ts': 'x' }, savedAt: T1 } }));
    const parsed = parseProgressFile(text);
    expect(parsed.ok && parsed.file.progress).toEqual(sample());
  });

  it.each([
    ['not JSON', '{"format":', 'not-json'],
    ['another format', JSON.stringify({ format: 'course-submission', version: 1 }), 'wrong-format'],
    ['another version', JSON.stringify({ ...buildProgressFile(sample(), {}), version: 2 }), 'wrong-version'],
  ])('rejects %s', (_, text, kind) => {
    const parsed = parseProgressFile(text);
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.problem.kind).toBe(kind);
  });

  it('rejects a tampered file and says where', () => {
    const file = buildProgressFile(sample(), {});
    file.progress.quizzes['timeouts-quiz']!.best.score = 80;
    const parsed = parseProgressFile(JSON.stringify(file));
    expect(parsed).toEqual({ ok: false, problem: { kind: 'invalid', where: 'progress.quizzes.timeouts-quiz.best' } });
  });

  it('previews a merge that loses nothing: new lessons, better scores, newer code', () => {
    const local = sample();
    const remote: Progress = {
      ...emptyProgress(),
      lessons: { 'deadlines/cancellation': { read: true, at: T2, by: 'scroll' }, 'timeouts/why-timeouts': { read: true, at: T2, by: 'scroll' } },
      quizzes: { 'timeouts-quiz': { attempts: 3, best: quiz(8, T2), last: quiz(2, T2) } },
      exercises: {
        'retry-helper': {
          attempts: 2,
          passed: true,
          best: { status: 'pass', passed: 16, total: 16, runner: 'webcontainer', at: T2 },
          last: { status: 'pass', passed: 16, total: 16, runner: 'webcontainer', at: T2 },
        },
      },
    };
    const localCode = { 'retry-helper': { version: 1 as const, files: { 'retry.ts': 'old' }, savedAt: T1 } };
    const file = buildProgressFile(remote, {
      'retry-helper': { version: 1, files: { 'retry.ts': 'new' }, savedAt: T2 },
      'deadline-middleware': { version: 1, files: { 'deadline.ts': 'd' }, savedAt: T2 },
    });
    const { progress, code, preview } = previewImport(local, localCode, file);
    expect(preview.lessonsRead).toEqual(['deadlines/cancellation']);
    expect(preview.quizzes).toEqual([{ id: 'timeouts-quiz', from: { score: 5, total: 8 }, to: { score: 8, total: 8 } }]);
    expect(preview.exercises).toEqual([{ id: 'retry-helper', toPassed: true, attempts: 2 }]);
    expect(preview.codeReplaced).toEqual(['retry-helper']);
    expect(preview.codeAdded).toEqual(['deadline-middleware']);
    expect(preview.unchanged).toBe(false);
    expect(progress.quizzes['timeouts-quiz']).toMatchObject({ attempts: 3, best: { score: 8 }, last: { score: 2 } });
    expect(code['retry-helper']!.files['retry.ts']).toBe('new');
    // Nothing is written by a preview.
    expect(local).toEqual(sample());
  });

  it('keeps the better local result and the newer local code', () => {
    const local = sample();
    local.quizzes['timeouts-quiz']!.best = quiz(8, T1);
    const file = buildProgressFile(sample(), { 'retry-helper': { version: 1, files: { 'retry.ts': 'older' }, savedAt: T1 } });
    const { progress, code, preview } = previewImport(local, { 'retry-helper': { version: 1, files: { 'retry.ts': 'mine' }, savedAt: T2 } }, file);
    expect(progress.quizzes['timeouts-quiz']!.best.score).toBe(8);
    expect(code['retry-helper']!.files['retry.ts']).toBe('mine');
    expect(preview.unchanged).toBe(true);
  });

  it('carries a later "not done" from the other machine, and says so', () => {
    const remote = sample();
    remote.lessons['timeouts/why-timeouts'] = { read: false, at: T2, by: 'button' };
    const { preview } = previewImport(sample(), {}, buildProgressFile(remote, {}));
    expect(preview.lessonsUnread).toEqual(['timeouts/why-timeouts']);
  });
});
