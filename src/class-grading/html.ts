/**
 * The class report as one self-contained HTML file (inline CSS and one inline script, nothing
 * fetched), so an instructor can open it offline or mail it. The script (report-script.ts) sorts the
 * tables and filters the learners; without it the report reads the same, sorted by name. Tables have captions and header scopes for screen
 * readers; everything a learner wrote is escaped. Pure.
 */
import { formatDue, itemPoints, possiblePoints } from '../assignments/index.ts';
import { cm, say, type Lang } from './messages.ts';
import {
  exerciseCell,
  failingRules,
  gradebookRows,
  gradingFailed,
  inConflict,
  learnerGrade,
  learnerProblems,
  ruleFailureCounts,
  sortLearners,
  testTotals,
  type ClassContext,
  type LearnerResult,
} from './results.ts';
import type { Rejected } from './submission.ts';
import { excerpt, shownFile } from './neutral.ts';
import { inlineMarkdownHtml } from './markdown.ts';
import type { NotRead } from './zip-submissions.ts';
import { reportScriptTag, type ReportScriptStrings } from './report-script.ts';
import { isoInZone, lateCell, lateExplanation, latePolicyText } from './when.ts';

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string | number): string {
  return String(text).replace(/[&<>"']/g, (ch) => ESCAPES[ch]!);
}

const STYLE = `
:root { color-scheme: light dark; --fg: #1b1f24; --bg: #ffffff; --muted: #4a5560; --line: #c9d1d9; --bad: #a4161a; --good: #1a6b2f; --bar: #d1495b; --head: #f3f5f7; }
@media (prefers-color-scheme: dark) { :root { --fg: #e8ecf0; --bg: #15191e; --muted: #b4bfca; --line: #3b444e; --bad: #ff8a8f; --good: #7ddc93; --bar: #e06c7a; --head: #1f252c; } }
body { font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); background: var(--bg); margin: 0; }
main { max-width: 72rem; margin: 0 auto; padding: 1.5rem; }
h1 { font-size: 1.6rem; margin: 0 0 .5rem; } h2 { margin-top: 2.5rem; border-bottom: 1px solid var(--line); } h3 { margin-bottom: .25rem; }
.meta, .note { color: var(--muted); margin: .2rem 0; }
.scroll { overflow-x: auto; } .scroll:focus { outline: 2px solid currentColor; outline-offset: 2px; }
table { border-collapse: collapse; margin: .75rem 0; min-width: 50%; }
caption { text-align: left; font-weight: 600; padding: .25rem 0; }
th, td { border: 1px solid var(--line); padding: .3rem .6rem; text-align: left; vertical-align: top; }
thead th { background: var(--head); }
td.wide { min-width: 18rem; }
.gradebook tbody th[scope="row"], .gradebook thead th:first-child { position: sticky; left: 0; background: var(--bg); z-index: 1; }
.gradebook thead th:first-child { background: var(--head); }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.late, .bad { color: var(--bad); font-weight: 600; } .good { color: var(--good); font-weight: 600; }
.bar { display: inline-block; height: .6rem; background: var(--bar); margin-left: .5rem; vertical-align: middle; }
a { color: inherit; }
button.sort { font: inherit; font-weight: 600; color: inherit; background: none; border: 0; padding: 0; margin: 0; text-align: left; cursor: pointer; }
button.sort:focus-visible, .filters input:focus-visible, .filters select:focus-visible { outline: 2px solid currentColor; outline-offset: 2px; }
th[aria-sort="ascending"] .sort-mark::after { content: " \\25B2"; } th[aria-sort="descending"] .sort-mark::after { content: " \\25BC"; }
.filters { display: flex; flex-wrap: wrap; gap: 0 1.5rem; margin: 1rem 0 0; } .filters p { margin: .25rem 0; }
.filters input, .filters select { font: inherit; color: inherit; background: var(--bg); border: 1px solid var(--muted); padding: .1rem .3rem; }
`;

interface ReportInput {
  ctx: ClassContext;
  results: LearnerResult[];
  rejected: Rejected[];
  lang: Lang;
  generatedAt: Date;
  files: number;
  /** Entries of the submissions folder that are not submission files (not read): each listed, with why. */
  notRead?: NotRead[];
}

/** What the report's script says, in the report's language. */
function scriptStrings(lang: Lang): ReportScriptStrings {
  return {
    filter: cm(lang, 'html.filter'),
    filterHint: cm(lang, 'html.filterHint'),
    below: cm(lang, 'html.filterBelow'),
    rule: cm(lang, 'html.filterRule'),
    anyRule: cm(lang, 'html.filterAnyRule'),
    shown: cm(lang, 'html.filterShown', { shown: '{shown}', count: '{count}' }),
    sortedBy: cm(lang, 'html.sortedBy', { column: '{column}', direction: '{direction}' }),
    ascending: cm(lang, 'html.ascending'),
    descending: cm(lang, 'html.descending'),
    lang,
  };
}

/** The course's own texts (rule titles, messages, hints) carry inline Markdown: rendered, the rest escaped. */
const md = inlineMarkdownHtml;

export function renderReport({ ctx, results, rejected, lang, generatedAt, files, notRead = [] }: ReportInput): string {
  const { assignment } = ctx;
  const e = escapeHtml;
  const t = (key: Parameters<typeof cm>[1], vars?: Record<string, string | number>) => e(cm(lang, key, vars));
  const sorted = sortLearners(results);
  const anchor = (r: LearnerResult) => `learner-${sorted.indexOf(r) + 1}`;
  const totals = testTotals(results);

  // The gradebook: the same cells as the CSV, the learner's name as the row header, linking to details.
  const [header, ...rows] = gradebookRows(ctx, sorted, [], lang);
  const gradebook = `
<table class="gradebook" data-sortable data-learner-rows>
<caption>${t('html.gradebookCaption')}</caption>
<thead><tr>${header!.map((h) => `<th scope="col">${e(h)}</th>`).join('')}</tr></thead>
<tbody>
${rows
  .map((row, i) => {
    const r = sorted[i]!;
    const [name, ...rest] = row;
    // Row layout (see gradebookRows): name, email, file, status, (tests, broken rules) per exercise, quizzes…,
    // earned, total points, total %, handed in, late policy, exported at, solution shown, problems.
    const percentCol = 4 + 2 * assignment.exercises.length + assignment.quizzes.length + 2;
    const submittedCol = percentCol + 1;
    const lateNoteCol = percentCol + 2;
    const cells = rest.map((cell, j) => {
      const col = j + 1;
      const rulesCol = col >= 4 && col < 4 + 2 * assignment.exercises.length && (col - 4) % 2 === 1;
      const numeric = col >= 4 && col <= percentCol && !rulesCol;
      const cls =
        col === submittedCol && r.late ? ' class="late"' : numeric ? ' class="num"' : col === rest.length || col === lateNoteCol ? ' class="wide"' : '';
      return `<td${cls}>${e(cell)}</td>`;
    });
    const grade = learnerGrade(assignment, r);
    const broken = r.exercises.flatMap((o) => (o.status === 'graded' ? failingRules(o.report).map((rule) => `${o.id}:${rule}`) : []));
    return `<tr data-learner="${i + 1}" data-percent="${grade.percent}" data-broken="${e(broken.join(' '))}"><th scope="row"><a href="#${anchor(r)}">${e(name!)}</a></th>${cells.join('')}</tr>`;
  })
  .join('\n')}
</tbody>
</table>`;

  const ruleSections = ruleFailureCounts(ctx, results)
    .map((counts) => {
      const exercise = ctx.exercises[counts.id]!;
      if (counts.graded + counts.incomplete === 0) return `<h3>${e(exercise.title[lang])}</h3><p>${t('html.noGraded')}</p>`;
      const body = counts.rules
        .map(({ rule, failing }) => {
          const width = counts.graded ? Math.round((failing / counts.graded) * 160) : 0;
          const bar = width ? `<span class="bar" style="width:${width}px" aria-hidden="true"></span>` : '';
          return `<tr><th scope="row">${e(rule)}</th><td>${md(exercise.rules[rule]?.title[lang] ?? '')}</td><td class="num">${failing}/${counts.graded}${bar}</td></tr>`;
        })
        .join('\n');
      return `
<div class="scroll" role="region" tabindex="0" aria-label="${e(exercise.title[lang])}">
<table>
<caption>${t('html.rulesCaption', { exercise: exercise.title[lang], id: counts.id, graded: counts.graded })}</caption>
<thead><tr><th scope="col">${t('html.rule')}</th><th scope="col">${t('html.ruleTitle')}</th><th scope="col">${t('html.failing')}</th></tr></thead>
<tbody>
${body}
</tbody>
</table>
</div>${counts.incomplete ? `\n<p class="note">${t('html.noRun', { count: counts.incomplete })}</p>` : ''}`;
    })
    .join('\n');

  const learnerSections = sorted
    .map((r) => {
      const items = [
        ...r.exercises.map((o) => {
          const exercise = ctx.exercises[o.id]!;
          const label = `${t('html.exercise')} <strong>${e(exercise.title[lang])}</strong> (${e(o.id)})`;
          if (o.status === 'missing') return `<li>${label}: <span class="bad">${t('html.notSubmitted')}</span></li>`;
          if (o.status === 'grading-failed') return `<li>${label}: <span class="bad">${t('status.errored')}</span> (${e(o.message)})</li>`;
          const broken = failingRules(o.report);
          const verdict =
            o.report.status === 'pass'
              ? `<span class="good">${t('html.allRules')}</span>`
              : broken.length
                ? `${t('html.brokenRules')}<ul>${broken
                    .map((rule) => {
                      const first = o.report.tests.find((x) => x.rule === rule && x.status !== 'pass');
                      const texts = exercise.rules[rule];
                      const hint = texts ? `<br><span class="note">${t('feedback.hint')} ${md(texts.hint[lang])}</span>` : '';
                      return `<li><strong>${e(rule)}</strong> ${md(texts?.title[lang] ?? '')}${first?.message ? ` — ${md(first.message)}` : ''}${hint}</li>`;
                    })
                    .join('')}</ul>`
                : '';
          const runError = o.report.status === 'error' && o.report.message ? ` <span class="bad">${e(excerpt(o.report.message))}</span>` : '';
          return `<li>${label}: ${e(exerciseCell(o, totals, lang))} ${verdict}${runError}</li>`;
        }),
        ...r.quizzes.map((q) => {
          const title = ctx.quizzes[q.id]?.title[lang] ?? q.id;
          const score = q.answered ? `${q.score}/${q.total}` : `<span class="bad">${t('html.notSubmitted')}</span>`;
          return `<li>${t('html.quiz')} <strong>${e(title)}</strong> (${e(q.id)}): ${score}</li>`;
        }),
      ];
      const problems = learnerProblems(r).map((m) => e(say(lang, m)));
      const grade = learnerGrade(assignment, r);
      return `
<section aria-labelledby="${anchor(r)}">
<h3 id="${anchor(r)}">${e(r.learner.name)} &lt;${e(r.learner.email)}&gt;</h3>
<p class="meta">${t('col.file')}: ${e(shownFile(r.file))} · ${t('col.exportedAtZone', { zone: assignment.timeZone })}: ${e(isoInZone(r.exportedAt, assignment.timeZone))} · <span class="${r.late ? 'late' : 'good'}">${e(lateCell(lang, grade))}</span>${gradingFailed(r) ? ` · <span class="bad">${t('status.errored')}</span>` : ''}${inConflict(r) ? ` · <span class="bad">${t('status.conflict')}</span>` : ''}</p>
<p><strong>${t('html.learnerTotal', { points: grade.final, possible: grade.possible, percent: grade.percent.toFixed(1) })}</strong> ${e(say(lang, lateExplanation(assignment, r.exportedAt, grade, lang)))}</p>
<ul>${items.join('\n')}</ul>
<p class="meta">${t('col.problems')}: ${problems.length ? problems.join('; ') : t('html.none')}</p>
</section>`;
    })
    .join('\n');

  const rejectedSection = rejected.length
    ? `
<div class="scroll" role="region" tabindex="0" aria-labelledby="rejected">
<table>
<caption>${t('html.rejectedCaption')}</caption>
<thead><tr><th scope="col">${t('col.file')}</th><th scope="col">${t('col.name')}</th><th scope="col">${t('col.email')}</th><th scope="col">${t('html.reason')}</th></tr></thead>
<tbody>
${rejected
  .map(
    (x) =>
      `<tr><th scope="row">${e(shownFile(x.file))}</th><td>${e(x.learner?.name ?? '')}</td><td>${e(x.learner?.email ?? '')}</td><td>${e(say(lang, x.reason))}</td></tr>`,
  )
  .join('\n')}
</tbody>
</table>
</div>`
    : `<p>${t('html.rejectedNone')}</p>`;

  const notReadSection = notRead.length
    ? `
<div class="scroll" role="region" tabindex="0" aria-labelledby="not-read">
<table>
<caption>${t('html.notReadCaption')}</caption>
<thead><tr><th scope="col">${t('col.file')}</th><th scope="col">${t('html.reason')}</th></tr></thead>
<tbody>
${notRead.map((x) => `<tr><th scope="row">${e(shownFile(x.file))}</th><td>${e(say(lang, x.reason))}</td></tr>`).join('\n')}
</tbody>
</table>
</div>`
    : '';
  // Name, points and lateness only: narrow enough that the total is always on screen (the gradebook below is wide).
  const possible = possiblePoints(assignment);
  const totalsTable = `
<table data-sortable>
<caption>${t('html.totalsCaption')}</caption>
<thead><tr><th scope="col">${t('col.name')}</th><th scope="col">${t('col.points', { possible })}</th><th scope="col">${t('col.total')}</th><th scope="col">${t('col.submitted')}</th></tr></thead>
<tbody>
${sorted
  .map((r) => {
    const g = learnerGrade(assignment, r);
    return `<tr data-learner="${sorted.indexOf(r) + 1}"><th scope="row"><a href="#${anchor(r)}">${e(r.learner.name)}</a></th><td class="num">${g.final}</td><td class="num">${g.percent.toFixed(1)}</td><td${r.late ? ' class="late"' : ''}>${e(lateCell(lang, g))}</td></tr>`;
  })
  .join('\n')}
</tbody>
</table>`;
  const pointsText = [...assignment.exercises, ...assignment.quizzes].map((id) => `${id} ${itemPoints(assignment, id)}`).join(', ');
  const late = results.filter((r) => r.late).length;
  const errored = results.filter(gradingFailed).length;
  return `<!doctype html>
<html lang="${lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${t('html.title', { title: assignment.title })}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<h1>${t('html.title', { title: assignment.title })}</h1>
<p class="meta">${t('html.class', { name: assignment.className })} · ${e(assignment.id)}</p>
<p class="meta">${t('html.due', { due: formatDue(assignment.due, lang, assignment.timeZone) })}</p>
<p class="meta">${t('html.generated', { at: generatedAt.toISOString(), files })}</p>
<p><strong>${t('html.counts', { graded: results.length, rejected: rejected.length, errored, late })}</strong></p>
<p class="note">${t('html.lateBasis', { zone: assignment.timeZone })}</p>
<p class="note">${e(latePolicyText(assignment, lang))}</p>
<p class="note">${t('html.totalBasis', { points: pointsText })}</p>
<div data-report-controls></div>

<h2 id="totals">${t('html.totals')}</h2>
<div class="scroll" role="region" tabindex="0" aria-labelledby="totals">${totalsTable}
</div>

<h2 id="gradebook">${t('html.gradebook')}</h2>
<div class="scroll" role="region" tabindex="0" aria-labelledby="gradebook">${gradebook}
</div>

<h2 id="rules">${t('html.rules')}</h2>
${ruleSections}

<h2 id="learners">${t('html.learners')}</h2>
${learnerSections}

<h2 id="rejected">${t('html.rejected')}</h2>
${rejectedSection}
${notRead.length ? `\n<h2 id="not-read">${t('html.notRead')}</h2>\n${notReadSection}` : ''}
</main>
${reportScriptTag(scriptStrings(lang))}
</body>
</html>
`;
}
