import { describe, expect, it } from 'vitest';
import { runSim, type GanttChart } from '../sims/index.ts';
import { ganttSvg, niceTicks, stackBars } from './gantt-svg.ts';
import { ganttTableHtml } from './render.ts';

const charts = runSim('deadline-chain').charts as GanttChart[];
const words = {
  yes: 'yes',
  no: 'no',
  none: '—',
  sampled: '',
  lane: 'Hop',
  call: 'Call',
  start: 'Start',
  end: 'End',
  outcome: 'Outcome',
  outcomes: {
    ok: 'answered',
    timeout: 'timed out',
    error: 'returned an error',
    cancelled: 'cancelled',
    completed: 'worked to the end',
    stopped: 'stopped early',
  },
};
const options = { width: 640, lang: 'en' as const, outcomeLabels: words.outcomes, legendLabel: 'Outcome' };

describe('the deadline-chain timeline', () => {
  it('stacks overlapping calls of a lane in rows, reusing a row once it is free', () => {
    expect(
      stackBars([
        { lane: 'C', start: 0, end: 10, outcome: 'ok' },
        { lane: 'C', start: 5, end: 8, outcome: 'ok' },
        { lane: 'C', start: 9, end: 12, outcome: 'ok' },
      ]),
    ).toEqual([0, 1, 1]);
  });

  it('picks round ticks that cover the whole range', () => {
    expect(niceTicks(6004)).toEqual([0, 2000, 4000, 6000, 8000]);
    expect(niceTicks(300)).toEqual([0, 50, 100, 150, 200, 250, 300]);
  });

  it('draws one bar per call, a lane per hop, the 300 ms marker and a legend of the outcomes shown', () => {
    const bad = charts.find((c) => c.id === 'timeline-bad')!;
    const svg = ganttSvg(bad, options);
    expect(svg.match(/class="lab-bar lab-o-/g)!.length).toBe(bad.bars.length + new Set(bad.bars.map((b) => b.outcome)).size);
    for (const lane of bad.lanes) expect(svg).toContain(`>${lane.label.en}</text>`);
    expect(svg).toContain('Gateway gives up (300 ms)');
    expect(svg).toContain('>timed out</text>');
    expect(svg).toContain('Time (ms)');
    expect(svg).toContain('role="img"');
  });

  it('escapes text and gives the same calls as a table', () => {
    const good = charts.find((c) => c.id === 'timeline-good')!;
    const svg = ganttSvg({ ...good, title: { vi: '<x>', en: '<x>' } }, options);
    expect(svg).not.toContain('<x>');
    const table = ganttTableHtml(good, 'en', words);
    expect(table.match(/<tr>/g)!.length).toBe(good.bars.length + 1);
    expect(table).toContain('stopped early');
  });
});
