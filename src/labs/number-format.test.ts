import { describe, expect, it } from 'vitest';
import { axisTitle, formatFigure, formatNumber, formatTick } from './number-format.ts';

const words = { yes: 'yes', no: 'no', none: '—' };

describe('numbers in the page language', () => {
  it('uses each language’s separators', () => {
    expect(formatNumber(24000.5, 'en')).toBe('24,000.5');
    expect(formatNumber(24000.5, 'vi')).toBe('24.000,5');
  });

  it('formats figures with units, booleans and missing values', () => {
    expect(formatFigure(4.3, 'x', 'vi', words)).toBe('4,3x');
    expect(formatFigure(6.72, '%', 'en', words)).toBe('6.72%');
    expect(formatFigure(300, 'ms', 'en', words)).toBe('300 ms');
    expect(formatFigure(true, undefined, 'en', words)).toBe('yes');
    expect(formatFigure(null, 'ms', 'en', words)).toBe('—');
    expect(formatFigure('none, full-jitter-budget-10', undefined, 'en', words)).toBe('none, full-jitter-budget-10');
  });

  it('writes axis titles with their unit and ticks without float noise', () => {
    expect(axisTitle({ label: { vi: 'Thời gian', en: 'Time' }, unit: 'ms' }, 'vi')).toBe('Thời gian (ms)');
    expect(formatTick(0.30000000000000004, 'en')).toBe('0.3');
    expect(formatTick(1234.5678, 'en')).toBe('1,235');
  });
});
