/**
 * How a lab tells its series apart without colour: each one's line pattern, the same in the chart
 * (uPlot's dash, in CSS pixels) and in the legend's swatch (SVG stroke-dasharray), so a learner who
 * cannot tell the six colours apart (or prints the page) still matches a line to its name.
 */

/** Solid, long dash, dots, dash-dot, short dash, dash-dot-dot: one per colour of the palette. */
export const SERIES_DASHES: readonly (readonly number[])[] = [[], [12, 5], [2, 4], [12, 4, 2, 4], [6, 4], [10, 3, 2, 3, 2, 3]];

/** The learner's own code: its own pattern, in the text colour (uplot-chart.ts), drawn over the others. */
export const YOURS_DASH: readonly number[] = [8, 3, 1, 3];

export const isYours = (seriesId: string): boolean => seriesId.startsWith('yours-');

/** The pattern of series `index` (`id` tells the learner's own). */
export function seriesDash(index: number, id: string): readonly number[] {
  return isYours(id) ? YOURS_DASH : SERIES_DASHES[index % SERIES_DASHES.length]!;
}

/** The legend's swatch: a short line in the series' colour (its class) and pattern; a filled box for bars. */
export function swatchSvg(index: number, id: string, kind: 'line' | 'step' | 'bar'): string {
  const colour = isYours(id) ? 'lab-swatch-yours' : `lab-s${(index % SERIES_DASHES.length) + 1}`;
  if (kind === 'bar')
    return `<svg class="lab-swatch ${colour}" width="14" height="12" viewBox="0 0 14 12" aria-hidden="true"><rect x="1" y="1" width="12" height="10" /></svg>`;
  const dash = seriesDash(index, id);
  return `<svg class="lab-swatch ${colour}" width="30" height="8" viewBox="0 0 30 8" aria-hidden="true" data-dash="${dash.join(' ') || 'solid'}"><line x1="0" y1="4" x2="30" y2="4"${dash.length ? ` stroke-dasharray="${dash.join(' ')}"` : ''} /></svg>`;
}
