import { describe, expect, it } from 'vitest';
import { feedbackFiles, feedbackHtml, feedbackMarkdown } from './feedback.ts';
import { inlineMarkdownHtml, inlineMarkdownText } from './markdown.ts';
import type { ClassContext, LearnerResult } from './results.ts';
import { fakeReport, makeAssignment, retryHelperExercise } from './testing/test-fixtures.ts';

const exercise = retryHelperExercise({
  R1: { title: { en: 'A 2xx is returned at once', vi: 'Trả về 2xx ngay' } },
  R2: {
    title: { en: 'Only `408` and `503` are retried', vi: 'Chỉ retry `408` và `503`' },
    message: { en: 'You retried a **422**.', vi: 'Bạn đã retry một **422**.' },
    hint: { en: 'Check `res.status` against a `Set`.', vi: 'So `res.status` với một `Set`.' },
  },
});
const assignment = makeAssignment({ quizzes: [], points: { 'retry-helper': 20 } });
const ctx: ClassContext = { assignment, exercises: { 'retry-helper': exercise }, quizzes: {} };
const learner = (email: string, over: Partial<LearnerResult> = {}): LearnerResult => ({
  file: `${email}.json`,
  learner: { name: `<b>${email}</b>`, email },
  exportedAt: '2026-11-30T01:00:00.000Z',
  late: false,
  exercises: [
    {
      id: 'retry-helper',
      status: 'graded',
      report: fakeReport(['R1', 'R2'], ['R2']),
      flags: [{ kind: 'similar', percent: 97, others: ['other@example.com'] } as never],
    },
  ],
  quizzes: [],
  durationMs: 1,
  conflictsWith: ['someone-else.json'],
  ...over,
});

describe('feedback for one learner', () => {
  it('renders the course texts’ inline Markdown, escaping the rest', () => {
    expect(inlineMarkdownHtml('Use `a<b` and **not** <i>x</i>')).toBe('Use <code>a&lt;b</code> and <strong>not</strong> &lt;i&gt;x&lt;/i&gt;');
    expect(inlineMarkdownText('Use `res.ok` **now**')).toBe('Use res.ok now');
  });

  it('holds only the learner’s own results, the total and its lateness, the broken rules with their hints', () => {
    const md = feedbackMarkdown(ctx, learner('an@example.com'), 'en');
    expect(md).toContain('# Tuần 3: retry: your results');
    expect(md).toContain('**Total: 10 of 20 points (50.0%).** Exported ');
    expect(md).toContain('- **Exercise Retry helper (retry-helper): 10 of 20 points**');
    expect(md).toContain('  - 1 of 2 tests passed.');
    expect(md).toContain('  - R2 — Only `408` and `503` are retried: You retried a **422**. Hint: Check `res.status` against a `Set`.');
    // The instructor's flags and conflicts name other learners and files: never in a learner's feedback.
    expect(md).not.toMatch(/other@example\.com|someone-else|97%/);
    const html = feedbackHtml(ctx, learner('an@example.com'), 'en');
    expect(html).toContain('<code>res.status</code>');
    expect(html).toContain('&lt;b&gt;an@example.com&lt;/b&gt;');
    expect(html).not.toMatch(/<script|https?:\/\/|other@example\.com/);
  });

  it('is written in the learner’s language, else the command’s, one pair of files per submission file', () => {
    const files = feedbackFiles(ctx, [learner('an@example.com', { lang: 'vi' }), learner('binh@example.com'), { ...learner('x'), file: '../x.json' }], 'en');
    expect(Object.keys(files)).toEqual([
      'feedback/an_example.com.html',
      'feedback/an_example.com.md',
      'feedback/binh_example.com.html',
      'feedback/binh_example.com.md',
      'feedback/x.html',
      'feedback/x.md',
    ]);
    expect(files['feedback/an_example.com.md']).toContain('kết quả của bạn');
    expect(files['feedback/an_example.com.html']).toContain('<html lang="vi">');
    expect(files['feedback/binh_example.com.md']).toContain('your results');
    const missing = feedbackMarkdown(ctx, learner('c@x.co', { exercises: [{ id: 'retry-helper', status: 'missing' }] }), 'vi');
    expect(missing).toContain('Bài tập Trình retry (retry-helper): 0 trên 20 điểm');
    expect(missing).toContain('Chưa nộp: 0 điểm.');
  });
});
