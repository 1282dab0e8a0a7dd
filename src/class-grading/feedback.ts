/**
 * Feedback to hand back to one learner: their own results only (no other learner's name, address
 * or code, none of the instructor's flags), in their language (the one their submission was exported
 * in; else the command's), as a self-contained HTML page and as Markdown to paste into an LMS comment.
 * The total is learnerGrade's, the same as everywhere else. Pure.
 */
import { formatDue } from '../assignments/index.ts';
import { escapeHtml as e } from './html.ts';
import { inlineMarkdownHtml, inlineMarkdownText } from './markdown.ts';
import { cm, say, type Lang } from './messages.ts';
import { excerpt } from './neutral.ts';
import { failingRules, learnerGrade, type ClassContext, type LearnerResult } from './results.ts';
import { lateExplanation } from './when.ts';

interface Line {
  /** The item's heading: "Exercise Retry helper (retry-helper): 7.5 of 10 points". */
  head: string;
  /** Sentences under it; rule texts keep their inline Markdown. */
  notes: Array<{ text: string; markdown?: boolean }>;
}

function lines(ctx: ClassContext, r: LearnerResult, lang: Lang): Line[] {
  const grade = learnerGrade(ctx.assignment, r);
  const points = (id: string) => grade.items.find((i) => i.id === id)!;
  const out: Line[] = [];
  for (const o of r.exercises) {
    const exercise = ctx.exercises[o.id]!;
    const p = points(o.id);
    const head = cm(lang, 'feedback.exercise', { title: exercise.title[lang], id: o.id, earned: p.earned, possible: p.possible });
    if (o.status === 'missing') out.push({ head, notes: [{ text: cm(lang, 'feedback.notHandedIn') }] });
    else if (o.status === 'grading-failed') out.push({ head, notes: [{ text: cm(lang, 'feedback.gradingFailed') }] });
    else {
      const notes: Line['notes'] = [{ text: cm(lang, 'feedback.tests', { passed: o.report.counts.passed, total: o.report.counts.total }) }];
      if (o.report.status === 'error') notes.push({ text: cm(lang, 'feedback.runError', { message: excerpt(o.report.message ?? '') }) });
      else if (o.report.status === 'pass') notes.push({ text: cm(lang, 'html.allRules') });
      for (const rule of failingRules(o.report)) {
        const texts = exercise.rules[rule];
        if (!texts) continue;
        notes.push({ text: `${rule} — ${texts.title[lang]}: ${texts.message[lang]} ${cm(lang, 'feedback.hint')} ${texts.hint[lang]}`, markdown: true });
      }
      out.push({ head, notes });
    }
  }
  for (const q of r.quizzes) {
    const p = points(q.id);
    const head = cm(lang, 'feedback.quiz', { title: ctx.quizzes[q.id]?.title[lang] ?? q.id, id: q.id, earned: p.earned, possible: p.possible });
    out.push({ head, notes: [{ text: q.answered ? cm(lang, 'feedback.score', { score: q.score, total: q.total }) : cm(lang, 'feedback.notHandedIn') }] });
  }
  return out;
}

/** The learner's language: the one they exported in, else the command's. */
export const feedbackLang = (r: LearnerResult, fallback: Lang): Lang => r.lang ?? fallback;

function header(ctx: ClassContext, r: LearnerResult, lang: Lang) {
  const { assignment } = ctx;
  const grade = learnerGrade(assignment, r);
  return {
    title: cm(lang, 'feedback.title', { title: assignment.title }),
    who: `${r.learner.name} <${r.learner.email}>`,
    meta: [cm(lang, 'html.class', { name: assignment.className }), cm(lang, 'html.due', { due: formatDue(assignment.due, lang, assignment.timeZone) })],
    total: cm(lang, 'html.learnerTotal', { points: grade.final, possible: grade.possible, percent: grade.percent.toFixed(1) }),
    late: say(lang, lateExplanation(assignment, r.exportedAt, grade, lang)),
    basis: cm(lang, 'feedback.basis'),
  };
}

/** Markdown (or plain text: the marks are few) for an LMS comment box. */
export function feedbackMarkdown(ctx: ClassContext, r: LearnerResult, lang: Lang): string {
  const h = header(ctx, r, lang);
  const body = lines(ctx, r, lang)
    .map((l) => [`- **${l.head}**`, ...l.notes.map((n) => `  - ${n.markdown ? n.text : inlineMarkdownText(n.text)}`)].join('\n'))
    .join('\n');
  return `# ${h.title}\n\n${h.who}\n\n${h.meta.join(' · ')}\n\n**${h.total}** ${h.late}\n\n${body}\n\n${h.basis}\n`;
}

const STYLE = `
:root { color-scheme: light dark; }
body { font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 0; }
main { max-width: 44rem; margin: 0 auto; padding: 1.5rem; }
.meta { opacity: .8; margin: .2rem 0; } code { font-size: .95em; }
li { margin: .3rem 0; }
`;

export function feedbackHtml(ctx: ClassContext, r: LearnerResult, lang: Lang): string {
  const h = header(ctx, r, lang);
  const items = lines(ctx, r, lang)
    .map(
      (l) => `<li><strong>${e(l.head)}</strong><ul>${l.notes.map((n) => `<li>${n.markdown ? inlineMarkdownHtml(n.text) : e(n.text)}</li>`).join('')}</ul></li>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${e(h.title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<h1>${e(h.title)}</h1>
<p>${e(h.who)}</p>
${h.meta.map((m) => `<p class="meta">${e(m)}</p>`).join('\n')}
<p><strong>${e(h.total)}</strong> ${e(h.late)}</p>
<ul>
${items}
</ul>
<p class="meta">${e(h.basis)}</p>
</main>
</body>
</html>
`;
}

/**
 * One pair of files per learner, named after their submission file (`an.json` → `feedback/an.html`
 * and `feedback/an.md`), only safe characters kept, a number added when two names would meet.
 */
export function feedbackFiles(ctx: ClassContext, results: LearnerResult[], fallback: Lang): Record<string, string> {
  const files: Record<string, string> = {};
  const used = new Set<string>();
  for (const r of results) {
    const base =
      r.file
        .replace(/\.json$/i, '')
        .replace(/[^A-Za-z0-9._-]+/g, '_')
        .replace(/^[._]+/, '') || 'learner';
    let name = base;
    for (let n = 2; used.has(name.toLowerCase()); n++) name = `${base}-${n}`;
    used.add(name.toLowerCase());
    const lang = feedbackLang(r, fallback);
    files[`feedback/${name}.html`] = feedbackHtml(ctx, r, lang);
    files[`feedback/${name}.md`] = feedbackMarkdown(ctx, r, lang);
  }
  return files;
}
