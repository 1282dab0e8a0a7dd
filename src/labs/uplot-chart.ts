/**
 * An XY chart of a lab, drawn with uPlot. Colours are read from the page's CSS variables, so the
 * chart follows the light or dark theme; axis labels and tick values are in the page's language.
 */
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { axisTitle, formatTick, type Lang } from './number-format.ts';
import type { PreparedXY } from './prepare.ts';
import { placeLabels } from './marker-labels.ts';
import { isYours, seriesDash } from './series-style.ts';
import { aboveTop, extent } from './thin.ts';

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
/** One row of marker labels, in CSS pixels: the labels sit in a band above the plot, off the lines. */
const LABEL_ROW = 15;
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
    const [low, high] = extent(c.data.slice(1) as (number | null)[][]);
    // A band above the plot for the marker labels: a row per marker, the most placeLabels can need.
    const band = c.markers.length ? c.markers.length * LABEL_ROW + 4 : 10;
    return {
      ...this.#size(),
      padding: [band, 12, 0, 0],
      legend: { show: false },
      cursor: { drag: { x: false, y: false }, points: { show: false } },
      scales: {
        x: { time: false, ...(c.x.log ? { distr: 3 } : {}), ...(bars ? { range: (_u, min, max) => [min - 0.5, max + 0.5] } : {}) },
        // Linear: from the data of every series, not uPlot's own extent, which left retry-storm's 36x
        // peak above a chart that ended near 33 (issue 28).
        y: { ...(c.y.log ? { distr: 3 } : this.#logY ? LOG_LIKE : { range: () => [Math.min(0, low), high > 0 ? high * 1.05 : 1] }) },
      },
      axes: [axis(axisTitle(c.x, this.lang)), { ...axis(axisTitle(c.y, this.lang)), size: 60 }],
      series: [
        {},
        ...c.series.map((s, i): uPlot.Series => {
          // Each series its own line pattern as well as its colour (the legend draws the same); the
          // learner's own code in the text colour, drawn over the built-in policies.
          const yours = isYours(s.id);
          const colour = yours ? t.fg : t.series[i % t.series.length]!;
          const dash = seriesDash(i, s.id);
          return {
            label: s.label[this.lang],
            stroke: colour,
            ...(dash.length && !bars ? { dash: dash.map((d) => d * uPlot.pxRatio) } : {}),
            width: this.#focus === s.id || yours ? 3 : 2,
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
            const lines: (number | undefined)[] = [];
            for (const m of this.#chart.markers) {
              const x = u.valToPos(m.x, 'x', true);
              const inside = x >= u.bbox.left && x <= u.bbox.left + u.bbox.width;
              lines.push(inside ? x : undefined);
              if (!inside) continue;
              ctx.beginPath();
              ctx.moveTo(x, u.bbox.top);
              ctx.lineTo(x, u.bbox.top + u.bbox.height);
              ctx.stroke();
            }
            // Labels in the band above the plot (never over a series), each in the first row where it
            // overlaps no other label: on a phone the outage's start and end are a few pixels apart.
            ctx.setLineDash([]);
            const bandTop = u.bbox.top - (band - 2) * r;
            const placed = placeLabels(
              this.#chart.markers.map((m) => ({ x: u.valToPos(m.x, 'x', true), width: ctx.measureText(m.label[this.lang]).width + 6 * r })),
              { left: u.bbox.left, right: u.bbox.left + u.bbox.width, top: bandTop, rowHeight: LABEL_ROW * r },
            );
            // A marker line reaches up to its label, so the label says which line it names.
            placed.forEach((box, i) => {
              if (!box) return;
              const x = lines[i];
              if (x === undefined) return;
              ctx.beginPath();
              ctx.moveTo(x, box.y + box.height / 2);
              ctx.lineTo(x, u.bbox.top);
              ctx.stroke();
            });
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
            this.#markClipped(u, ctx);
            // For the tests: where the plot is (CSS pixels, canvas-relative) and what its y axis spans.
            this.host.dataset.plotBox = JSON.stringify({ x: u.bbox.left / r, y: u.bbox.top / r, width: u.bbox.width / r, height: u.bbox.height / r });
            this.host.dataset.yRange = JSON.stringify([u.scales.y!.min, u.scales.y!.max]);
            ctx.restore();
          },
        ],
      },
    };
  }

  /**
   * Where a series leaves the plot (above the top of its y axis, as on the log-like scale or in a
   * narrow window), a triangle at the edge in its colour and its peak written beside it, so a 36x
   * never reads as the axis' 30x. Lists them in data-clipped for the tests.
   */
  #markClipped(u: uPlot, ctx: CanvasRenderingContext2D): void {
    const r = uPlot.pxRatio;
    const top = u.scales.y!.max;
    if (top === undefined || top === null) return;
    const xs = this.#chart.data[0];
    const above = aboveTop(this.#chart.data.slice(1) as (number | null)[][], top);
    for (const { series: i, first, peak } of above) {
      const s = this.#chart.series[i]!;
      const x = u.valToPos(xs[first]!, 'x', true);
      const y = u.bbox.top;
      ctx.fillStyle = isYours(s.id) ? this.theme.fg : this.theme.series[i % this.theme.series.length]!;
      ctx.beginPath();
      ctx.moveTo(x, y - 7 * r);
      ctx.lineTo(x - 5 * r, y + 1 * r);
      ctx.lineTo(x + 5 * r, y + 1 * r);
      ctx.closePath();
      ctx.fill();
      const text = `↑ ${formatTick(peak, this.lang)}${this.#chart.y.unit ? ` ${this.#chart.y.unit}` : ''}`;
      ctx.textBaseline = 'bottom';
      ctx.textAlign = 'left';
      ctx.fillText(text, Math.min(x + 7 * r, u.bbox.left + u.bbox.width - ctx.measureText(text).width), y - 1 * r);
    }
    const marks = above.map((a) => ({ series: this.#chart.series[a.series]!.id, peak: a.peak }));
    this.host.dataset.clipped = JSON.stringify(marks);
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
