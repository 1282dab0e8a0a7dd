import { describe, expect, it } from 'vitest';
import { escapeHtml, renderReport } from './html.ts';
import type { ClassContext, LearnerResult } from './results.ts';
import { fakeReport, makeAssignment, retryHelperExercise } from './testing/test-fixtures.ts';

const exercise = retryHelperExercise({
  R1: { title: { en: 'A 2xx is returned at once', vi: 'Response 2xx được trả về ngay' } },
  R2: { title: { en: 'Only transient failures are retried', vi: 'Chỉ retry lỗi tạm thời' } },
});
const ctx: ClassContext = { assignment: makeAssignment({ quizzes: [], title: 'Week <3> & "retry"' }), exercises: { 'retry-helper': exercise }, quizzes: {} };
const results: LearnerResult[] = [
  {
    file: 'evil.json',
    learner: { name: '<script>alert(1)</script>', email: 'evil@example.com' },
    exportedAt: '2026-12-03T00:00:00.000Z',
    late: true,
    exercises: [{ id: 'retry-helper', status: 'graded', report: fakeReport(['R1', 'R2'], ['R2']) }],
    quizzes: [],
    durationMs: 1,
  },
];
const render = (lang: 'en' | 'vi') =>
  renderReport({
    ctx,
    results,
    rejected: [{ file: 'x".json', reason: { key: 'reject.unreadable', params: { code: '<b>' } } }],
    lang,
    generatedAt: new Date('2026-12-05T00:00:00Z'),
    files: 2,
  });

describe('class report (HTML)', () => {
  it('escapes everything people wrote', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
    const html = render('en');
    expect(html).not.toContain('<script>alert');
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(html).toContain('Week &lt;3&gt; &amp; &quot;retry&quot;');
    expect(html).toContain('could not be opened (&lt;b&gt;)');
  });

  it('is self-contained and built for screen readers', () => {
    const html = render('en');
    expect(html).toMatch(/^<!doctype html>\n<html lang="en">/);
    // One inline script (sorting and filtering), nothing fetched: the file works opened from disk.
    expect(html.match(/<script/g)).toHaveLength(1);
    expect(html).toMatch(/<script>\(function \(doc, strings\)/);
    expect(html).not.toMatch(/<link|src=|https?:\/\/|fetch\(/);
    expect((html.match(/<caption>/g) ?? []).length).toBe(4); // totals, gradebook, rules, rejected
    expect(html).toContain('<th scope="col">Name</th>');
    expect(html).toContain('<th scope="row"><a href="#learner-1">');
  });

  it('shows per-rule failure counts with the rule titles, each learner’s broken rules, and rejected files', () => {
    const html = render('en');
    expect(html).toContain('<th scope="row">R2</th><td>Only transient failures are retried</td><td class="num">1/1');
    expect(html).toContain('<th scope="row">R1</th><td>A 2xx is returned at once</td><td class="num">0/1</td>');
    expect(html).toContain('<strong>R2</strong> Only transient failures are retried — R2 broke');
    expect(html).toContain('<td class="late">late</td>');
    expect(html).toContain('<th scope="row">x&quot;.json</th>');
    expect(html).toContain('exportedAt');
  });

  it('marks the rows the script sorts and filters, readable without it', () => {
    const html = render('en');
    expect((html.match(/<table data-sortable>/g) ?? []).length).toBe(1); // the totals
    expect(html).toContain('<table class="gradebook" data-sortable data-learner-rows>');
    expect(html).toContain('<tr data-learner="1" data-percent="50" data-broken="retry-helper:R2">');
    expect(html).toContain('<div data-report-controls></div>'); // empty until the script fills it
    expect(html).toContain('"filter":"Filter learners"');
    expect(render('vi')).toContain('"filter":"Lọc học viên"');
  });

  it('speaks the chosen language', () => {
    const html = render('vi');
    expect(html).toContain('<html lang="vi">');
    expect(html).toContain('Bảng điểm: Week');
    expect(html).toContain('Chỉ retry lỗi tạm thời');
    expect(html).toContain('trễ hạn');
    expect(html).toContain('Các file bài nộp bị từ chối');
    expect(html).not.toContain('Gradebook');
  });
});
