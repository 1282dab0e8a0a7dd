import { describe, expect, it } from 'vitest';
import { runSim } from '../sims/index.ts';
import { prepareView, type PreparedXY } from './prepare.ts';
import { chartTableHtml, cliCommand, figuresHtml, legendHtml, resultsTableHtml } from './render.ts';

const words = {
  yes: 'yes',
  no: 'no',
  none: '— (none)',
  sampled: '{shown} of {total} points',
  lane: '',
  call: '',
  start: '',
  end: '',
  outcome: '',
  outcomes: {},
};
const storm = prepareView(runSim('retry-storm'));

describe('the text parts of a lab', () => {
  it('renders the results table with row headers and the highlighted row', () => {
    const html = resultsTableHtml(storm, 'en', words, 'Results', { key: 'policy', value: 'full-jitter-x3' });
    expect(html).toContain('<caption>Results</caption>');
    expect(html).toContain('<th scope="row">full-jitter-x3</th>');
    expect(html.match(/lab-row-focus/g)).toHaveLength(1);
    expect(html).toContain('— (none)');
  });

  it('says when a chart table is sampled and labels columns with units', () => {
    const chart = storm.charts[0] as PreparedXY;
    const html = chartTableHtml(chart, 'vi', words);
    expect(html).toMatch(/\d+ of 2500 points/);
    expect(html).toContain('Thời gian từ lúc bắt đầu outage (s)');
  });

  it('renders figures and legends in the page language and dims the others when one is highlighted', () => {
    expect(figuresHtml(storm.summary, 'vi', words)).toContain('Tải bình thường / capacity');
    const legend = legendHtml(storm.charts[0] as PreparedXY, 'en', 'none');
    expect(legend.match(/lab-dim/g)).toHaveLength(5);
  });

  it('writes the command that reproduces a run', () => {
    expect(cliCommand('retry-storm', 3, ['budgetPercent=20'])).toBe('npm run sim -- retry-storm --seed 3 --set budgetPercent=20');
  });
});
