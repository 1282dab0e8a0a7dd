/** A simulation's result as plain text (table and summary), for the sim command. */
import type { Lang } from '../i18n/index.ts';
import type { Column, Row, SimResult, SummaryItem } from './types.ts';

export function formatValue(v: Row[string] | SummaryItem['value'], unit?: string, lang: Lang = 'en'): string {
  if (v === null || v === '') return '—'; // an empty list (no policy recovered) says so
  if (typeof v === 'boolean') return lang === 'vi' ? (v ? 'có' : 'không') : v ? 'yes' : 'no';
  if (typeof v === 'number') {
    const s = Number.isInteger(v) ? String(v) : String(Math.round(v * 1000) / 1000);
    return unit ? `${s}${unit === '%' || unit === 'x' ? '' : ' '}${unit}` : s;
  }
  return v;
}

/** A plain-text table for people: one column per `columns` entry, numbers right-aligned. */
export function formatTable(result: Pick<SimResult, 'rows' | 'columns'>, lang: Lang = 'en'): string {
  const cols: Column[] = result.columns;
  const header = cols.map((c) => c.label[lang]);
  const body = result.rows.map((r) => cols.map((c) => formatValue(r[c.key] ?? null, c.unit, lang)));
  const numeric = cols.map((c) => result.rows.every((r) => typeof r[c.key] === 'number' || r[c.key] === null));
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)));
  const line = (cells: string[]): string =>
    cells
      .map((cell, i) => (numeric[i] ? cell.padStart(widths[i]!) : cell.padEnd(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line)].join('\n');
}

export function formatSummary(items: readonly SummaryItem[], lang: Lang = 'en'): string {
  return items.map((s) => `${s.label[lang]}: ${formatValue(s.value, s.unit, lang)}`).join('\n');
}
