/**
 * The deadline-chain timeline as SVG markup: one lane per hop, one bar per call, coloured by outcome
 * (and hatched or dashed too, so colour is not the only cue). Pure string building, so the build
 * renders the default timeline into the page and the lab redraws it after each change.
 * Colours come from CSS classes (`lab-o-<outcome>`), so the light and dark themes need no redraw.
 */
import type { GanttBar, GanttChart } from '../sims/index.ts';
import { axisTitle, formatTick, type Lang } from './number-format.ts';

export const OUTCOMES = ['ok', 'error', 'timeout', 'cancelled', 'completed', 'stopped'] as const;

export interface GanttOptions {
  width: number;
  lang: Lang;
  /** Outcome id -> its name in the page language. */
  outcomeLabels: Record<string, string>;
  legendLabel: string;
}

const esc = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Stack overlapping bars of one lane in rows: each bar goes to the first row that is free at its start. */
export function stackBars(bars: readonly GanttBar[]): number[] {
  const rowEnds: number[] = [];
  return bars.map((b) => {
    let row = rowEnds.findIndex((end) => end <= b.start);
    if (row < 0) row = rowEnds.push(b.end) - 1;
    else rowEnds[row] = b.end;
    return row;
  });
}

/** About `count` round tick values covering [0, max]. */
export function niceTicks(max: number, count = 6): number[] {
  if (!(max > 0)) return [0];
  const raw = max / count;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * mag).find((s) => s >= raw)!;
  const ticks: number[] = [];
  for (let v = 0; ; v += step) {
    ticks.push(Number(v.toPrecision(12)));
    if (v >= max - step * 1e-9) break;
  }
  return ticks;
}

const BAR_H = 14;
const ROW_GAP = 3;
const LANE_PAD = 6;
const LEFT = 118;
const RIGHT = 14;
const TOP = 22;
const AXIS_H = 42;

export function ganttSvg(chart: GanttChart, o: GanttOptions): string {
  const width = Math.max(280, Math.round(o.width));
  const maxX = Math.max(1, ...chart.bars.map((b) => b.end), ...(chart.markers ?? []).map((m) => m.x));
  const ticks = niceTicks(maxX);
  const domain = ticks[ticks.length - 1]!;
  const plotW = width - LEFT - RIGHT;
  const sx = (v: number): number => LEFT + (v / domain) * plotW;

  const lanes = chart.lanes.map((lane) => {
    const bars = chart.bars.filter((b) => b.lane === lane.id).sort((a, b) => a.start - b.start);
    const rows = stackBars(bars);
    return { lane, bars, rows, height: LANE_PAD * 2 + Math.max(1, Math.max(0, ...rows) + 1) * (BAR_H + ROW_GAP) - ROW_GAP };
  });
  const plotH = lanes.reduce((a, l) => a + l.height, 0);
  const legendTop = TOP + plotH + AXIS_H;
  const used = [...new Set(chart.bars.map((b) => b.outcome))].sort((a, b) => OUTCOMES.indexOf(a as never) - OUTCOMES.indexOf(b as never));
  const legendPerRow = Math.max(1, Math.floor((width - 8) / 130));
  const legendRows = Math.ceil(used.length / legendPerRow);
  const height = legendTop + 22 + legendRows * 20;
  const hatch = `${chart.id}-hatch`;

  const out: string[] = [];
  out.push(
    `<svg class="lab-gantt" xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="${esc(chart.title[o.lang])}">`,
    `<defs><pattern id="${hatch}" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="6" height="6" class="lab-hatch-bg"/><line x1="0" y1="0" x2="0" y2="6" class="lab-hatch-line"/></pattern></defs>`,
  );
  // Lanes, their labels and the grid.
  let y = TOP;
  for (const l of lanes) {
    out.push(`<rect x="${LEFT}" y="${y}" width="${plotW}" height="${l.height}" class="lab-lane"/>`);
    out.push(
      `<text x="${LEFT - 8}" y="${y + l.height / 2}" class="lab-gantt-lane" text-anchor="end" dominant-baseline="middle">${esc(l.lane.label[o.lang])}</text>`,
    );
    y += l.height;
  }
  for (const t of ticks) {
    const x = sx(t).toFixed(1);
    out.push(`<line x1="${x}" x2="${x}" y1="${TOP}" y2="${TOP + plotH}" class="lab-grid"/>`);
    const anchor = t === domain ? 'end' : t === 0 ? 'start' : 'middle';
    out.push(`<text x="${x}" y="${TOP + plotH + 16}" text-anchor="${anchor}" class="lab-gantt-tick">${esc(formatTick(t, o.lang))}</text>`);
  }
  out.push(`<text x="${LEFT + plotW / 2}" y="${TOP + plotH + 34}" text-anchor="middle" class="lab-gantt-axis">${esc(axisTitle(chart.x, o.lang))}</text>`);
  // Bars.
  y = TOP;
  for (const l of lanes) {
    l.bars.forEach((b, i) => {
      const x = sx(b.start);
      const w = Math.max(2, sx(b.end) - x);
      const by = y + LANE_PAD + l.rows[i]! * (BAR_H + ROW_GAP);
      const name = o.outcomeLabels[b.outcome] ?? b.outcome;
      const tip = `${l.lane.label[o.lang]} ${b.label ?? ''}: ${formatTick(b.start, o.lang)}–${formatTick(b.end, o.lang)} ${chart.x.unit ?? ''}, ${name}`;
      out.push(
        `<rect x="${x.toFixed(1)}" y="${by}" width="${w.toFixed(1)}" height="${BAR_H}" rx="2" class="lab-bar lab-o-${esc(b.outcome)}"><title>${esc(tip)}</title></rect>`,
      );
      if (b.outcome === 'timeout')
        out.push(`<rect x="${x.toFixed(1)}" y="${by}" width="${w.toFixed(1)}" height="${BAR_H}" rx="2" fill="url(#${hatch})" class="lab-bar-hatch"/>`);
    });
    y += l.height;
  }
  // Markers (the gateway's 300 ms) on top.
  for (const m of chart.markers ?? []) {
    const x = sx(m.x).toFixed(1);
    out.push(`<line x1="${x}" x2="${x}" y1="${TOP - 4}" y2="${TOP + plotH}" class="lab-marker"/>`);
    out.push(
      `<text x="${x}" y="${TOP - 8}" text-anchor="${sx(m.x) > width * 0.7 ? 'end' : 'start'}" class="lab-gantt-marker">${esc(m.label[o.lang])} (${esc(formatTick(m.x, o.lang))} ${esc(chart.x.unit ?? '')})</text>`,
    );
  }
  // Legend.
  out.push(`<text x="4" y="${legendTop + 4}" class="lab-gantt-axis">${esc(o.legendLabel)}</text>`);
  used.forEach((outcome, i) => {
    const lx = 4 + (i % legendPerRow) * 130;
    const ly = legendTop + 12 + Math.floor(i / legendPerRow) * 20;
    out.push(`<rect x="${lx}" y="${ly}" width="22" height="12" rx="2" class="lab-bar lab-o-${esc(outcome)}"/>`);
    if (outcome === 'timeout') out.push(`<rect x="${lx}" y="${ly}" width="22" height="12" rx="2" fill="url(#${hatch})" class="lab-bar-hatch"/>`);
    out.push(`<text x="${lx + 28}" y="${ly + 10}" class="lab-gantt-legend">${esc(o.outcomeLabels[outcome] ?? outcome)}</text>`);
  });
  out.push('</svg>');
  return out.join('');
}
