import { describe, expect, it } from 'vitest';
import { SERIES_DASHES, seriesDash, swatchSvg, YOURS_DASH } from './series-style.ts';

describe('series told apart by more than colour', () => {
  it('gives each of the six palette colours its own line pattern, and the learner a seventh', () => {
    const all = [...SERIES_DASHES, YOURS_DASH].map((d) => d.join(' '));
    expect(new Set(all).size).toBe(7);
    expect(seriesDash(7, 'full-jitter')).toEqual(SERIES_DASHES[1]);
    expect(seriesDash(0, 'yours-retry')).toEqual(YOURS_DASH);
  });

  it('draws the same pattern in the legend swatch as on the chart', () => {
    expect(swatchSvg(2, 'a', 'line')).toContain(`stroke-dasharray="${SERIES_DASHES[2]!.join(' ')}"`);
    expect(swatchSvg(0, 'a', 'step')).not.toContain('stroke-dasharray');
    expect(swatchSvg(1, 'a', 'bar')).toContain('<rect');
    expect(swatchSvg(0, 'yours-x', 'line')).toContain('lab-swatch-yours');
  });
});
