/**
 * Turns a simulation result into what a lab shows: charts on one x array (thinned for drawing),
 * a readable data table per chart, the figures and the table. Runs in the worker for every change
 * and at build time for the server-rendered defaults, so both show the same thing.
 */
import type { Axis, Chart, Column, GanttChart, LearnerOutcome, Marker, Row, SimResult, SummaryItem, Text } from '../sims/index.ts';
import { alignSeries, tableIndices, thinAligned } from './thin.ts';
import type { FocusSpec } from './url-state.ts';

export interface PreparedXY {
  id: string;
  kind: 'line' | 'step' | 'bar';
  title: Text;
  x: Axis;
  y: Axis;
  series: { id: string; label: Text }[];
  /** uPlot's aligned data: x first, then one array per series. */
  data: [number[], ...(number | null)[][]];
  markers: Marker[];
  /** Points before thinning (per series). */
  points: number;
  table: { x: number[]; ys: (number | null)[][] };
}

export type PreparedChart = PreparedXY | GanttChart;

export interface LabView {
  rows: Row[];
  columns: Column[];
  summary: SummaryItem[];
  charts: PreparedChart[];
  /** What became of the learner's code, when it was asked for. */
  learner?: LearnerOutcome[];
}

export interface PrepareOptions {
  maxPoints: number;
  tableRows: number;
}

export const PREPARE_DEFAULTS: PrepareOptions = { maxPoints: 1600, tableRows: 40 };

function prepareChart(chart: Chart, o: PrepareOptions): PreparedChart {
  if (chart.kind === 'gantt') return chart;
  const aligned = alignSeries(chart.series);
  const thin = thinAligned(aligned, o.maxPoints);
  const rows = tableIndices(aligned, o.tableRows);
  return {
    id: chart.id,
    kind: chart.kind,
    title: chart.title,
    x: chart.x,
    y: chart.y,
    series: chart.series.map((s) => ({ id: s.id, label: s.label })),
    data: [thin.x, ...thin.ys],
    markers: chart.markers ?? [],
    points: aligned.x.length,
    table: { x: rows.map((i) => aligned.x[i]!), ys: aligned.ys.map((y) => rows.map((i) => y[i] ?? null)) },
  };
}

export function prepareView(result: SimResult, options: PrepareOptions = PREPARE_DEFAULTS): LabView {
  return {
    rows: result.rows,
    columns: result.columns,
    summary: result.summary,
    charts: result.charts.map((c) => prepareChart(c, options)),
    ...(result.learner ? { learner: result.learner } : {}),
  };
}

/**
 * The rows a learner can highlight: the first text column whose every value names a series of some
 * chart (retry-storm's policy, jitter-waves' strategy, hedging's mode). Null when there is none.
 */
export function focusSpec(view: Pick<LabView, 'rows' | 'columns' | 'charts'>): FocusSpec | null {
  const seriesIds = new Set(view.charts.flatMap((c) => (c.kind === 'gantt' ? [] : c.series.map((s) => s.id))));
  for (const col of view.columns) {
    const values = view.rows.map((r) => r[col.key]);
    if (values.length > 1 && values.every((v) => typeof v === 'string' && seriesIds.has(v))) return { key: col.key, values: values as string[] };
  }
  return null;
}

/** The label of a focus value: the series label, which reads better than the id. */
export function focusLabel(view: Pick<LabView, 'charts'>, id: string): Text {
  for (const c of view.charts) {
    if (c.kind === 'gantt') continue;
    const s = c.series.find((s) => s.id === id);
    if (s) return s.label;
  }
  return { vi: id, en: id };
}

/** Key figures: the focused row's values (except its id), then the simulation's summary. */
export function keyFigures(view: Pick<LabView, 'rows' | 'columns' | 'summary'>, focus: { key: string; value: string } | null): SummaryItem[] {
  const row = focus ? view.rows.find((r) => r[focus.key] === focus.value) : undefined;
  const fromRow: SummaryItem[] = row
    ? view.columns
        .filter((c) => c.key !== focus!.key)
        .map((c) => ({ key: `row.${c.key}`, label: c.label, value: row[c.key] ?? null, ...(c.unit ? { unit: c.unit } : {}) }))
    : [];
  return [...fromRow, ...view.summary];
}
