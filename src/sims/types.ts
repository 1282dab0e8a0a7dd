/**
 * The shapes every simulation shares: its definition, parameters, result rows, charts and text in
 * both languages. Types only, so the sims import nothing from the site.
 */
import type { LearnerCode, LearnerOutcome } from './learner.ts';

/** A string in both course languages. Same shape as the site's `Bilingual`, kept local so the sims import nothing. */
export interface Text {
  vi: string;
  en: string;
}

export type ParamValue = number | string | boolean;
export type ParamValues = Record<string, ParamValue>;

interface ParamBase {
  key: string;
  label: Text;
  help?: Text;
  /** Used only by the learner's code ("use my code"): the lab shows it only then. */
  learnerOnly?: boolean;
}

export interface NumberParamSpec extends ParamBase {
  kind: 'int' | 'number';
  min: number;
  max: number;
  step?: number;
  unit?: string;
  default: number;
}

export interface SelectOption {
  value: string;
  label: Text;
}

export interface SelectParamSpec extends ParamBase {
  kind: 'select';
  options: SelectOption[];
  default: string;
}

export interface BooleanParamSpec extends ParamBase {
  kind: 'boolean';
  default: boolean;
}

export type ParamSpec = NumberParamSpec | SelectParamSpec | BooleanParamSpec;

export interface Column {
  key: string;
  label: Text;
  unit?: string;
}

/** One line of a chart: x and y have the same length. */
export interface Series {
  id: string;
  label: Text;
  x: number[];
  y: number[];
}

export interface Axis {
  label: Text;
  unit?: string;
  /** Suggest a log scale (latency percentiles, amplification). */
  log?: boolean;
  /** Offer the reader a log-like scale (one tall series would flatten the others); it starts linear. */
  logOption?: boolean;
}

/** A vertical reference line (a timeout, the end of an outage). */
export interface Marker {
  x: number;
  label: Text;
}

export interface XYChart {
  id: string;
  kind: 'line' | 'step' | 'bar';
  title: Text;
  x: Axis;
  y: Axis;
  series: Series[];
  markers?: Marker[];
}

/** One bar of a Gantt chart: a call or a piece of work on a lane. */
export interface GanttBar {
  lane: string;
  start: number;
  end: number;
  outcome: string;
  label?: string;
}

export interface GanttChart {
  id: string;
  kind: 'gantt';
  title: Text;
  x: Axis;
  lanes: { id: string; label: Text }[];
  bars: GanttBar[];
  markers?: Marker[];
}

export type Chart = XYChart | GanttChart;

/** A key figure shown as text next to the charts. */
export interface SummaryItem {
  key: string;
  label: Text;
  value: number | string | boolean | null;
  unit?: string;
}

export type Row = Record<string, number | string | boolean | null>;

export interface SimResult<R extends Row = Row, D = unknown> {
  /** The lesson's table, one object per line; `columns` says how to show it. */
  rows: R[];
  columns: Column[];
  charts: Chart[];
  summary: SummaryItem[];
  /** Simulation-specific plain data (for example the deadline-chain timeline). */
  data?: D;
  /** What became of each learner policy asked for (see learner.ts). */
  learner?: LearnerOutcome[];
}

export interface SimDefinition<P extends ParamValues = ParamValues, R extends Row = Row, D = unknown> {
  name: string;
  title: Text;
  description: Text;
  params: ParamSpec[];
  /** Constraints between parameters (each one alone is checked against its spec first). */
  check?(params: P): Text | null;
  /**
   * Pure: the same params, seed and learner code always give the same result. Params must be valid
   * (see `validateParams`). `learner`: exports of the learner's code for exercises in `learnerExercises`.
   */
  run(params: P, seed: number, learner?: readonly LearnerCode[]): SimResult<R, D>;
  /** The exercises whose code this simulation can run as one more policy ("use my code"). */
  learnerExercises?: readonly string[];
  /** What of which exercise it cannot run, and why (shown in the lab). */
  learnerNote?: Text;
}
