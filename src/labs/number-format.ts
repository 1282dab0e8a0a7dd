/**
 * Numbers as the page's language writes them (Vietnamese: 1.000,5; English: 1,000.5), for figures,
 * tables, axis ticks and slider values.
 */
import type { Axis, SummaryItem, Text } from '../sims/index.ts';

import type { Lang } from '../i18n/index.ts';

export type { Lang };

const LOCALE: Record<Lang, string> = { vi: 'vi-VN', en: 'en-US' };
const formatters = new Map<string, Intl.NumberFormat>();

export function formatNumber(v: number, lang: Lang, maxDigits = 3): string {
  const key = `${lang}/${maxDigits}`;
  let f = formatters.get(key);
  if (!f) formatters.set(key, (f = new Intl.NumberFormat(LOCALE[lang], { maximumFractionDigits: maxDigits })));
  return f.format(v);
}

/** A unit glued to its number the way people write them: "4.3x", "6.72%", "300 ms". */
export function withUnit(text: string, unit: string | undefined): string {
  if (!unit) return text;
  return unit === '%' || unit === 'x' ? `${text}${unit}` : `${text} ${unit}`;
}

export interface FigureWords {
  yes: string;
  no: string;
  none: string;
  /** What the simulation's ids (a policy, a strategy) are called in the page's language. */
  names?: Readonly<Record<string, Text>>;
}

/** A figure as the page says it: ids by their names (a list of them too), an empty list as "none". */
export function formatFigure(value: SummaryItem['value'], unit: string | undefined, lang: Lang, words: FigureWords): string {
  if (value === null || value === '') return words.none;
  if (typeof value === 'boolean') return value ? words.yes : words.no;
  if (typeof value === 'number') return withUnit(formatNumber(value, lang), unit);
  return value
    .split(', ')
    .map((part) => words.names?.[part]?.[lang] ?? part)
    .join(', ');
}

/** "Time since the outage started (s)". */
export function axisTitle(axis: Axis, lang: Lang): string {
  return axis.unit ? `${axis.label[lang]} (${axis.unit})` : axis.label[lang];
}

/** Round for display on an axis: at most 3 significant decimals, no float noise. */
export function formatTick(v: number, lang: Lang): string {
  const abs = Math.abs(v);
  const digits = abs === 0 || abs >= 100 ? 0 : abs >= 10 ? 1 : abs >= 1 ? 2 : 3;
  return formatNumber(v, lang, digits);
}
