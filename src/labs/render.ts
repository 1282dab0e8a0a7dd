/**
 * HTML for the parts of a lab that are text: key figures, the results table, each chart's legend and
 * its data table. The same functions render the defaults at build time (Lab.astro) and every update in
 * the browser, so the page reads the same before and after the script runs.
 */
import type { GanttChart, SummaryItem, Text } from '../sims/index.ts';
import { axisTitle, formatFigure, formatNumber, type FigureWords, type Lang } from './number-format.ts';
import type { LabView, PreparedXY } from './prepare.ts';
import { fillPlaceholders } from '../i18n/index.ts';
import { swatchSvg } from './series-style.ts';

export interface RenderWords extends FigureWords {
  /** "{shown} of {total} points…" */
  sampled: string;
  lane: string;
  call: string;
  start: string;
  end: string;
  outcome: string;
  outcomes: Record<string, string>;
}

export const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const fill = fillPlaceholders;

/** The ids a simulation's figures and rows may hold (its series and lanes), with their names. */
export function namesOf(view: Pick<LabView, 'charts'>): Record<string, Text> {
  const names: Record<string, Text> = {};
  for (const chart of view.charts) {
    if (chart.kind === 'gantt') for (const lane of chart.lanes) names[lane.id] = lane.label;
    else for (const s of chart.series) names[s.id] = s.label;
  }
  return names;
}

export function figuresHtml(items: readonly SummaryItem[], lang: Lang, words: FigureWords): string {
  return items
    .map(
      (s) =>
        `<div class="lab-figure" data-figure="${escapeHtml(s.key)}"><dt>${escapeHtml(s.label[lang])}</dt><dd>${escapeHtml(formatFigure(s.value, s.unit, lang, words))}</dd></div>`,
    )
    .join('');
}

export function resultsTableHtml(
  view: Pick<LabView, 'rows' | 'columns'>,
  lang: Lang,
  words: FigureWords,
  caption: string,
  focus: { key: string; value: string } | null,
): string {
  const head = view.columns.map((c) => `<th scope="col">${escapeHtml(c.unit ? `${c.label[lang]} (${c.unit})` : c.label[lang])}</th>`).join('');
  const body = view.rows
    .map((r) => {
      const focused = focus && r[focus.key] === focus.value;
      const cells = view.columns.map((c, i) => {
        const v = r[c.key] ?? null;
        const text = escapeHtml(typeof v === 'number' ? formatNumber(v, lang) : formatFigure(v, undefined, lang, words));
        return i === 0 ? `<th scope="row">${text}</th>` : `<td>${text}</td>`;
      });
      return `<tr${focused ? ' class="lab-row-focus"' : ''}>${cells.join('')}</tr>`;
    })
    .join('');
  return `<caption>${escapeHtml(caption)}</caption><thead><tr>${head}</tr></thead><tbody>${body}</tbody>`;
}

/**
 * The legend of an XY chart: each series' name beside a swatch in its colour (`--lab-s<n>` through
 * the class) and its line pattern, so the name, not the colour alone, says which line is which.
 */
export function legendHtml(chart: Pick<PreparedXY, 'series' | 'kind'>, lang: Lang, focus: string | null): string {
  return chart.series
    .map(
      (s, i) =>
        `<li class="lab-legend-item${focus && focus !== s.id ? ' lab-dim' : ''}" data-series="${escapeHtml(s.id)}">${swatchSvg(i, s.id, chart.kind)}${escapeHtml(s.label[lang])}</li>`,
    )
    .join('');
}

export function chartTableHtml(chart: PreparedXY, lang: Lang, words: RenderWords): string {
  const head = [axisTitle(chart.x, lang), ...chart.series.map((s) => (chart.y.unit ? `${s.label[lang]} (${chart.y.unit})` : s.label[lang]))];
  const body = chart.table.x
    .map(
      (x, r) =>
        `<tr><th scope="row">${escapeHtml(formatNumber(x, lang))}</th>${chart.table.ys.map((y) => `<td>${y[r] === null || y[r] === undefined ? '' : escapeHtml(formatNumber(y[r]!, lang))}</td>`).join('')}</tr>`,
    )
    .join('');
  const note =
    chart.table.x.length < chart.points
      ? `<p class="lab-note">${escapeHtml(fill(words.sampled, { shown: chart.table.x.length, total: chart.points }))}</p>`
      : '';
  return `${note}<table><caption>${escapeHtml(chart.title[lang])}</caption><thead><tr>${head.map((h) => `<th scope="col">${escapeHtml(h)}</th>`).join('')}</tr></thead><tbody>${body}</tbody></table>`;
}

export function ganttTableHtml(chart: GanttChart, lang: Lang, words: RenderWords): string {
  const lanes = new Map(chart.lanes.map((l) => [l.id, l.label[lang]]));
  const unit = chart.x.unit ? ` (${chart.x.unit})` : '';
  const head = [words.lane, words.call, `${words.start}${unit}`, `${words.end}${unit}`, words.outcome];
  const bars = [...chart.bars].sort(
    (a, b) => a.start - b.start || chart.lanes.findIndex((l) => l.id === a.lane) - chart.lanes.findIndex((l) => l.id === b.lane),
  );
  const body = bars
    .map(
      (b) =>
        `<tr><th scope="row">${escapeHtml(lanes.get(b.lane) ?? b.lane)}</th><td>${escapeHtml(b.label ?? '')}</td><td>${escapeHtml(formatNumber(b.start, lang, 1))}</td><td>${escapeHtml(formatNumber(b.end, lang, 1))}</td><td>${escapeHtml(words.outcomes[b.outcome] ?? b.outcome)}</td></tr>`,
    )
    .join('');
  return `<table><caption>${escapeHtml(chart.title[lang])}</caption><thead><tr>${head.map((h) => `<th scope="col">${escapeHtml(h)}</th>`).join('')}</tr></thead><tbody>${body}</tbody></table>`;
}

/** The command that reproduces this run: `npm run sim -- retry-storm --seed 3 --set budgetPercent=20`. */
export function cliCommand(sim: string, seed: number, assignments: readonly string[]): string {
  return `npm run sim -- ${sim} --seed ${seed}${assignments.map((a) => ` --set ${a}`).join('')}`;
}
