/** Puts values into a message's {placeholders}; an unknown one stays visible so a missing value shows. */
export function fillPlaceholders(text: string, vars: Record<string, string | number> = {}): string {
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in vars ? String(vars[name]) : whole));
}
