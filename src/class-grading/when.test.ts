import { describe, expect, it } from 'vitest';
import { gradeTotal } from '../assignments/grading-model.ts';
import { say } from './messages.ts';
import { makeAssignment } from './testing/test-fixtures.ts';
import { duration, isoInZone, lateCell, lateExplanation, latePolicyText } from './when.ts';

const assignment = makeAssignment({
  latePolicy: { graceMinutes: 120, penaltyPercent: 10, per: 'day', floorPercent: 50, cutoff: '2026-12-04T23:59:00+07:00' },
});
const explain = (exportedAt: string, lang: 'en' | 'vi' = 'en') => {
  const grade = gradeTotal(assignment, [{ id: 'retry-helper', kind: 'exercise', share: 0.5 }], exportedAt);
  return [lateCell(lang, grade), say(lang, lateExplanation(assignment, exportedAt, grade, lang))];
};

describe('times and lateness in words, in the class’s time zone', () => {
  it('writes instants as the class’s wall clock with its offset', () => {
    expect(isoInZone('2026-12-01T18:30:00.000Z', 'Asia/Ho_Chi_Minh')).toBe('2026-12-02T01:30:00+07:00');
    expect(isoInZone('2026-07-01T12:00:00.000Z', 'America/New_York')).toBe('2026-07-01T08:00:00-04:00');
    expect(isoInZone('2026-12-01T12:00:00.000Z', 'America/New_York')).toBe('2026-12-01T07:00:00-05:00');
  });

  it('says durations in both languages', () => {
    expect(duration(26 * 3_600_000 + 5 * 60_000, 'en')).toBe('1 d 2 h 5 min');
    expect(duration(26 * 3_600_000 + 5 * 60_000, 'vi')).toBe('1 ngày 2 giờ 5 phút');
    // Inside the due date's own minute: seconds, not "1 min" after a time shown to the minute.
    expect(duration(1000, 'en')).toBe('1 s');
    expect(duration(29_500, 'vi')).toBe('30 giây');
    expect(duration(60_000, 'en')).toBe('1 min');
    expect(duration(61_000, 'en')).toBe('2 min');
  });

  it('explains each case with the times in the class’s zone', () => {
    expect(explain('2026-12-01T16:00:00.000Z')).toEqual(['on time', expect.stringMatching(/^Exported .*23:00 \(Asia\/Ho_Chi_Minh\), before the due date/)]);
    const [graceCell, grace] = explain('2026-12-01T18:29:00.000Z');
    expect(graceCell).toBe('late, within grace');
    expect(grace).toMatch(/01:29 \(Asia\/Ho_Chi_Minh\), 1 h 30 min after the due date .*within the grace period \(2 h\): nothing is taken off/);
    const [penCell, pen] = explain('2026-12-02T20:00:00.000Z');
    expect(penCell).toBe('late: 80% kept');
    expect(pen).toContain('2 days begun after the grace period (2 h), 10% off each, at least 50% kept: 80% of 5 points kept, 4.');
    const [cutCell, cut] = explain('2026-12-05T00:00:00.000Z', 'vi');
    expect(cutCell).toBe('quá hạn chót: 0');
    expect(cut).toMatch(/sau hạn chót \(23:59 .*2026\): không được nhận, 0 điểm \(bản thân bài làm đạt 5\)/);
  });

  it('states the policy itself', () => {
    expect(latePolicyText(assignment, 'en')).toMatch(
      /^Late policy: a grace period of 2 h, then 10% of the points off per day begun, at least 50% kept\. Not accepted after .*23:59 \(Asia\/Ho_Chi_Minh\)\.$/,
    );
    expect(latePolicyText(makeAssignment(), 'vi')).toContain('Không có quy định nộp muộn');
  });
});
