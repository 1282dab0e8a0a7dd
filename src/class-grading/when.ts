/**
 * Times and the late policy in words, in the class's time zone (the assignment's `timeZone`), for
 * the gradebook, the report and each learner's feedback. Pure (Intl only).
 */
import { zoneOffsetMinutes, type Assignment, type GradeTotal } from '../assignments/index.ts';
import { cm, type Lang, type Message } from './messages.ts';

const pad = (n: number) => String(n).padStart(2, '0');

/** `2026-12-01T18:30:00.000Z` in Asia/Ho_Chi_Minh -> `2026-12-02T01:30:00+07:00`: sortable, and the wall clock of the class. */
export function isoInZone(iso: string, timeZone: string): string {
  const ms = Date.parse(iso);
  const offset = zoneOffsetMinutes(ms, timeZone);
  const wall = new Date(Math.floor(ms / 1000) * 1000 + offset * 60_000);
  const abs = Math.abs(offset);
  return (
    `${wall.getUTCFullYear()}-${pad(wall.getUTCMonth() + 1)}-${pad(wall.getUTCDate())}T${pad(wall.getUTCHours())}:${pad(wall.getUTCMinutes())}:${pad(wall.getUTCSeconds())}` +
    `${offset >= 0 ? '+' : '-'}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`
  );
}

/** For people: "Wed, 2 Dec 2026, 01:30" / "Th 4, 2 thg 12, 2026, 01:30" in the class's zone. */
export function whenInZone(iso: string, lang: Lang, timeZone: string): string {
  return new Intl.DateTimeFormat(lang === 'vi' ? 'vi-VN' : 'en-GB', {
    timeZone,
    weekday: 'short',
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(new Date(iso));
}

/**
 * "1 d 2 h 5 min" / "1 ngày 2 giờ 5 phút", each started minute counted; under a minute, in seconds
 * ("30 s"): an export inside the due date's own minute would otherwise read "23:59, 1 min after 23:59".
 */
export function duration(ms: number, lang: Lang): string {
  if (ms < 60_000) return cm(lang, 'dur.s', { n: Math.max(1, Math.ceil(ms / 1000)) });
  const minutes = Math.max(1, Math.ceil(ms / 60_000));
  const d = Math.floor(minutes / 1440);
  const h = Math.floor((minutes % 1440) / 60);
  const m = minutes % 60;
  return [d ? cm(lang, 'dur.d', { n: d }) : '', h ? cm(lang, 'dur.h', { n: h }) : '', m ? cm(lang, 'dur.min', { n: m }) : ''].filter(Boolean).join(' ');
}

const num = (x: number) => String(Math.round(x * 100) / 100);

/** The short cell of the gradebook ("late, within grace", "late: 80% kept", "past the cut-off"). */
export function lateCell(lang: Lang, grade: GradeTotal): string {
  const { late } = grade;
  if (late.status === 'on-time') return cm(lang, 'submitted.onTime');
  if (late.status === 'late') return cm(lang, 'submitted.late');
  if (late.status === 'grace') return cm(lang, 'submitted.grace');
  if (late.status === 'cut-off') return cm(lang, 'submitted.cutOff');
  return cm(lang, 'submitted.penalised', { kept: num(late.keptPercent) });
}

/** Why the learner got what they got for lateness, with the times in the class's zone. */
export function lateExplanation(assignment: Assignment, exportedAt: string, grade: GradeTotal, lang: Lang): Message {
  const zone = assignment.timeZone;
  const at = `${whenInZone(exportedAt, lang, zone)} (${zone})`;
  const due = whenInZone(assignment.due, lang, zone);
  const { late } = grade;
  const policy = assignment.latePolicy;
  const after = duration(late.lateMs, lang);
  const grace = policy ? (policy.graceMinutes ? duration(policy.graceMinutes * 60_000, lang) : cm(lang, 'late.noGrace')) : '';
  switch (late.status) {
    case 'on-time':
      return { key: 'late.onTime', params: { at, due } };
    case 'late':
      return { key: 'late.noPolicy', params: { at, due, after } };
    case 'grace':
      return { key: 'late.grace', params: { at, due, after, grace } };
    case 'cut-off':
      return { key: 'late.cutOff', params: { at, cutoff: whenInZone(policy!.cutoff!, lang, zone), earned: num(grade.earned) } };
    case 'penalised':
      return {
        key: policy!.per === 'hour' ? 'late.penalisedHour' : 'late.penalisedDay',
        params: {
          at,
          due,
          after,
          grace,
          periods: late.periods,
          penalty: num(policy!.penaltyPercent),
          floor: num(policy!.floorPercent),
          kept: num(late.keptPercent),
          earned: num(grade.earned),
          final: num(grade.final),
        },
      };
  }
}

/** The policy itself in one sentence, for the top of the report. */
export function latePolicyText(assignment: Assignment, lang: Lang): string {
  const p = assignment.latePolicy;
  if (!p) return cm(lang, 'html.noLatePolicy');
  const grace = p.graceMinutes ? duration(p.graceMinutes * 60_000, lang) : cm(lang, 'late.noGrace');
  const base = cm(lang, p.per === 'hour' ? 'html.latePolicyHour' : 'html.latePolicyDay', { grace, penalty: num(p.penaltyPercent), floor: num(p.floorPercent) });
  return p.cutoff
    ? `${base} ${cm(lang, 'html.latePolicyCutoff', { cutoff: `${whenInZone(p.cutoff, lang, assignment.timeZone)} (${assignment.timeZone})` })}`
    : base;
}
