import { describe, expect, it } from 'vitest';
import { assignmentSchema, type Assignment, type LatePolicy } from './file-schemas.ts';
import { DEFAULT_ITEM_POINTS, gradeTotal, itemPoints, possiblePoints } from './grading-model.ts';
import { lateVerdict } from './late-policy.ts';

const DUE = '2026-12-01T23:59:00+07:00'; // 16:59 UTC
const policy: LatePolicy = { graceMinutes: 60, penaltyPercent: 10, per: 'day', floorPercent: 50, cutoff: '2026-12-08T23:59:00+07:00' };
const assignment = (over: Partial<Assignment> = {}): Assignment =>
  assignmentSchema.parse({
    format: 'course-assignment',
    version: 1,
    id: 'asg-x',
    title: 'T',
    className: 'C',
    due: DUE,
    timeZone: 'Asia/Ho_Chi_Minh',
    modules: [],
    exercises: ['retry-helper', 'backoff'],
    quizzes: ['q1'],
    createdAt: '2026-11-20T00:00:00.000Z',
    ...over,
  });

describe('late policy', () => {
  it('is on time up to the due instant, then late; without a policy nothing is taken off', () => {
    expect(lateVerdict(DUE, '2026-12-01T16:59:00.000Z')).toEqual({ status: 'on-time', lateMs: 0, periods: 0, keptPercent: 100 });
    expect(lateVerdict(DUE, '2026-12-03T16:59:00.000Z')).toMatchObject({ status: 'late', lateMs: 2 * 86_400_000, keptPercent: 100 });
  });

  it('keeps everything within the grace period, then takes the penalty per day begun after it, down to the floor', () => {
    expect(lateVerdict(DUE, '2026-12-01T17:59:00.000Z', policy)).toMatchObject({ status: 'grace', periods: 0, keptPercent: 100 }); // 60 min late
    expect(lateVerdict(DUE, '2026-12-01T18:00:00.000Z', policy)).toMatchObject({ status: 'penalised', periods: 1, keptPercent: 90 }); // one minute past grace
    expect(lateVerdict(DUE, '2026-12-02T17:59:00.000Z', policy)).toMatchObject({ status: 'penalised', periods: 1, keptPercent: 90 }); // a whole day past grace
    expect(lateVerdict(DUE, '2026-12-02T17:59:01.000Z', policy)).toMatchObject({ periods: 2, keptPercent: 80 });
    expect(lateVerdict(DUE, '2026-12-08T16:00:00.000Z', policy)).toMatchObject({ periods: 7, keptPercent: 50 }); // 30% would be below the floor
  });

  it('per hour, with fractional percentages that do not drift', () => {
    const hourly: LatePolicy = { graceMinutes: 0, penaltyPercent: 33.33, per: 'hour', floorPercent: 0 };
    expect(lateVerdict(DUE, '2026-12-01T19:30:00.000Z', hourly)).toMatchObject({ periods: 3, keptPercent: 0.01 });
    expect(lateVerdict(DUE, '2026-12-01T20:30:00.000Z', hourly)).toMatchObject({ periods: 4, keptPercent: 0 });
  });

  it('refuses work past the cut-off: 0 kept', () => {
    expect(lateVerdict(DUE, '2026-12-08T16:59:00.000Z', policy)).toMatchObject({ status: 'penalised' });
    expect(lateVerdict(DUE, '2026-12-08T17:00:00.000Z', policy)).toMatchObject({ status: 'cut-off', keptPercent: 0 });
  });

  it('is checked in the assignment file: percentages in range, a cut-off after the due date', () => {
    expect(assignmentSchema.safeParse(assignment({ latePolicy: policy })).success).toBe(true);
    expect(() => assignment({ latePolicy: { ...policy, penaltyPercent: 120 } })).toThrow();
    expect(() => assignment({ latePolicy: { ...policy, cutoff: '2026-12-01T00:00:00+07:00' } })).toThrow(/cut-off/);
    expect(() => assignment({ latePolicy: { ...policy, per: 'week' as 'day' } })).toThrow();
  });
});

describe('grading model', () => {
  it('gives every item DEFAULT_ITEM_POINTS unless the assignment says otherwise, and refuses points for an item it lacks', () => {
    expect(DEFAULT_ITEM_POINTS).toBe(10);
    const a = assignment({ points: { backoff: 25 } });
    expect([itemPoints(a, 'retry-helper'), itemPoints(a, 'backoff'), itemPoints(a, 'q1')]).toEqual([10, 25, 10]);
    expect(possiblePoints(a)).toBe(45);
    expect(() => assignment({ points: { 'fan-out': 5 } })).toThrow(/points are given for an item/);
    expect(() => assignment({ points: { backoff: 0 } })).toThrow();
  });

  it('sums points times shares; an item not handed in earns 0 and keeps its points possible; the late policy keeps a percentage', () => {
    const a = assignment({ points: { 'retry-helper': 20, backoff: 10, q1: 5 }, latePolicy: policy });
    const shares = [
      { id: 'retry-helper', kind: 'exercise' as const, share: 45 / 48 },
      { id: 'backoff', kind: 'exercise' as const, share: undefined },
      { id: 'q1', kind: 'quiz' as const, share: 2 / 3 },
    ];
    const onTime = gradeTotal(a, shares, '2026-12-01T16:00:00.000Z');
    expect(onTime.items.map((i) => [i.id, i.earned, i.possible])).toEqual([
      ['retry-helper', 18.75, 20],
      ['backoff', 0, 10],
      ['q1', 3.33, 5],
    ]);
    expect([onTime.earned, onTime.final, onTime.possible, onTime.percent]).toEqual([22.08, 22.08, 35, 63.1]);
    const twoDaysLate = gradeTotal(a, shares, '2026-12-03T17:30:00.000Z');
    expect([twoDaysLate.late.keptPercent, twoDaysLate.final, twoDaysLate.percent]).toEqual([80, 17.66, 50.5]);
    const pastCutoff = gradeTotal(a, shares, '2026-12-09T00:00:00.000Z');
    expect([pastCutoff.earned, pastCutoff.final, pastCutoff.possible]).toEqual([22.08, 0, 35]);
  });

  // The decimals an instructor checks by hand: a half rounds up even where binary arithmetic lands just below it.
  it('rounds to hundredths a half up, as on paper: 12.85 at 70 % is 9.00, not 8.99', () => {
    const a = assignment({
      exercises: ['retry-helper'],
      quizzes: ['q1'],
      points: { 'retry-helper': 20, q1: 10 },
      latePolicy: { ...policy, graceMinutes: 0, floorPercent: 0, penaltyPercent: 30 },
    });
    const shares = [
      { id: 'retry-helper', kind: 'exercise' as const, share: 10 / 21 },
      { id: 'q1', kind: 'quiz' as const, share: 2 / 6 },
    ];
    const late = gradeTotal(a, shares, '2026-12-02T00:00:00.000Z'); // one day begun: 70 % kept
    expect([late.earned, late.late.keptPercent, late.final]).toEqual([12.85, 70, 9]);
    const item = gradeTotal(
      assignment({ exercises: ['retry-helper'], quizzes: [], points: { 'retry-helper': 3 } }),
      [{ id: 'retry-helper', kind: 'exercise', share: 29 / 40 }],
      DUE,
    );
    expect(item.items[0]!.earned).toBe(2.18); // 2.175
    const halves = gradeTotal(
      assignment({ exercises: ['retry-helper'], quizzes: [], points: { 'retry-helper': 1.5 } }),
      [{ id: 'retry-helper', kind: 'exercise', share: 67 / 100 }],
      DUE,
    );
    expect(halves.items[0]!.earned).toBe(1.01); // 1.005
  });
});
