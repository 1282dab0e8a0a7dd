/**
 * An XY chart of a lab, drawn with uPlot. Colours are read from the page's CSS variables, so the
 * chart follows the light or dark theme; axis labels and tick values are in the page's language.
 */
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { axisTitle, formatTick, type Lang } from './number-format.ts';
import type { PreparedXY } from './prepare.ts';
import { placeLabels } from './marker-labels.ts';

export interface Theme {
  fg: string;
  bg: string;
  muted: string;
  grid: string;
  series: string[];
  font: string;
}

export function readTheme(el: Element): Theme {
  const css = getComputedStyle(el);
  const v = (name: string, fallback: string): string => css.getPropertyValue(name).trim() || fallback;
  return {
    fg: v('--fg', '#1b1f24'),
    bg: v('--bg', '#ffffff'),
    muted: v('--fg-muted', '#4f5661'),
    grid: v('--border', '#d5dae0'),
    series: [1, 2, 3, 4, 5, 6].map((i) => v(`--lab-s${i}`, '#0b5cad')),
    font: css.fontFamily || 'system-ui, sans-serif',
  };
}

const DIM = 0.22;
/**
 * The reader's log scale: uPlot's asinh scale, logarithmic for large values and linear near zero, so
 * the empty windows (0 retries) still have a place, which a true log scale cannot give them.
 */
export const LOG_LIKE: uPlot.Scale = { distr: 4, asinh: 1 };

export class LabPlot {
  #plot: uPlot | null = null;
  #chart: PreparedXY;
  #focus: string | null;
  #logY = false;

  constructor(
    private readonly host: HTMLElement,
    chart: PreparedXY,
    private readonly lang: Lang,
    private theme: Theme,
    focus: string | null,
  ) {
    this.#chart = chart;
    this.#focus = focus;
    this.#build();
  }

  #size(): { width: number; height: number } {
    const width = Math.max(240, Math.floor(this.host.clientWidth || 600));
    return { width, height: width < 480 ? 220 : 280 };
  }

  #options(): uPlot.Options {
    const c = this.#chart;
    const t = this.theme;
    const axis = (label: string): uPlot.Axis => ({
      label,
      stroke: t.fg,
      font: `12px ${t.font}`,
      labelFont: `600 12px ${t.font}`,
      grid: { stroke: t.grid, width: 1 },
      ticks: { stroke: t.grid, width: 1 },
      values: (_u, splits) => splits.map((v) => (v === null || v === undefined ? '' : formatTick(v, this.lang))),
    });
    const bars = c.kind === 'bar';
    const n = c.series.length;
    return {
      ...this.#size(),
      legend: { show: false },
      cursor: { drag: { x: false, y: false }, points: { show: false } },
      scales: {
        x: { time: false, ...(c.x.log ? { distr: 3 } : {}), ...(bars ? { range: (_u, min, max) => [min - 0.5, max + 0.5] } : {}) },
        y: { ...(c.y.log ? { distr: 3 } : this.#logY ? LOG_LIKE : { range: (_u, min, max) => [Math.min(0, min), max > 0 ? max * 1.05 : 1] }) },
      },
      axes: [axis(axisTitle(c.x, this.lang)), { ...axis(axisTitle(c.y, this.lang)), size: 60 }],
      series: [
        {},
        ...c.series.map((s, i): uPlot.Series => {
          const colour = t.series[i % t.series.length]!;
          return {
            label: s.label[this.lang],
            stroke: colour,
            width: this.#focus === s.id ? 3 : 2,
            alpha: this.#focus && this.#focus !== s.id ? DIM : 1,
            points: { show: bars ? false : undefined },
            ...(c.kind === 'step' ? { paths: uPlot.paths.stepped!({ align: 1 }) } : {}),
            ...(bars ? { paths: uPlot.paths.bars!({ size: [0.8 / n, 60], align: n === 1 ? 0 : i === 0 ? -1 : 1 }), fill: colour } : {}),
          };
        }),
      ],
      hooks: {
        draw: [
          (u) => {
            // Reference lines: the outage, the chosen timeout.
            const ctx = u.ctx;
            const r = uPlot.pxRatio;
            ctx.save();
            ctx.strokeStyle = t.fg;
            ctx.fillStyle = t.fg;
            ctx.lineWidth = 1.5 * r;
            ctx.setLineDash([5 * r, 3 * r]);
            ctx.font = `${11 * r}px ${t.font}`;
            const lines: number[] = [];
            for (const m of this.#chart.markers) {
              const x = u.valToPos(m.x, 'x', true);
              if (!(x >= u.bbox.left && x <= u.bbox.left + u.bbox.width)) continue;
              lines.push(x);
              ctx.beginPath();
              ctx.moveTo(x, u.bbox.top);
              ctx.lineTo(x, u.bbox.top + u.bbox.height);
              ctx.stroke();
            }
            // Labels on a background, each in the first row where it overlaps no other label: on a
            // phone the outage's start and end are a few pixels apart.
            ctx.setLineDash([]);
            const placed = placeLabels(
              this.#chart.markers.map((m) => ({ x: u.valToPos(m.x, 'x', true), width: ctx.measureText(m.label[this.lang]).width + 6 * r })),
              { left: u.bbox.left, right: u.bbox.left + u.bbox.width, top: u.bbox.top + 2 * r, rowHeight: 15 * r },
            );
            ctx.textBaseline = 'top';
            ctx.textAlign = 'left';
            placed.forEach((box, i) => {
              if (!box) return;
              ctx.fillStyle = t.bg;
              ctx.fillRect(box.x, box.y, box.width, box.height);
              ctx.fillStyle = t.fg;
              ctx.fillText(this.#chart.markers[i]!.label[this.lang], box.x + 3 * r, box.y + 2 * r);
            });
            this.host.dataset.markerLabels = JSON.stringify(
              placed.filter(Boolean).map((b) => ({ x: b!.x / r, y: b!.y / r, width: b!.width / r, height: b!.height / r })),
            );
            ctx.restore();
          },
        ],
      },
    };
  }

  #build(): void {
    this.#plot?.destroy();
    this.host.replaceChildren();
    this.#plot = new uPlot(this.#options(), this.#chart.data as uPlot.AlignedData, this.host);
  }

  update(chart: PreparedXY, focus: string | null): void {
    const sameShape =
      chart.series.length === this.#chart.series.length && chart.kind === this.#chart.kind && chart.series.every((s, i) => s.id === this.#chart.series[i]!.id);
    const focusChanged = focus !== this.#focus;
    this.#chart = chart;
    this.#focus = focus;
    if (!sameShape || focusChanged || !this.#plot) this.#build();
    else this.#plot.setData(chart.data as uPlot.AlignedData);
  }

  /** Switches the y axis between linear and log-like (the chart's own choice stays linear). */
  setLogY(on: boolean): void {
    this.#logY = on;
    this.host.dataset.yScale = on ? 'log' : 'linear';
    this.#build();
  }

  setTheme(theme: Theme): void {
    this.theme = theme;
    this.#build();
  }

  resize(): void {
    this.#plot?.setSize(this.#size());
  }

  destroy(): void {
    this.#plot?.destroy();
    this.#plot = null;
  }
}
