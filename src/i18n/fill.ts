/**
 * Puts values into a message's {placeholders}; an unknown one stays visible so a missing value shows.
 * `{count|one|other}` picks a word form by the count's plural category in English (`one` for 1, else
 * `other`): Vietnamese nouns do not inflect, so Vietnamese strings never need it.
 */
const english = new Intl.PluralRules('en');

export function fillPlaceholders(text: string, vars: Record<string, string | number> = {}): string {
  return text
    .replace(/\{(\w+)\|([^|{}]*)\|([^|{}]*)\}/g, (whole, name: string, one: string, other: string) =>
      name in vars ? (english.select(Number(vars[name])) === 'one' ? one : other) : whole,
    )
    .replace(/\{(\w+)\}/g, (whole, name: string) => (name in vars ? String(vars[name]) : whole));
}
