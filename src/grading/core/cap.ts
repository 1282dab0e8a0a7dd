// biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI colour codes start with ESC, that is what it strips
const ANSI = /\u001b\[[0-9;?]*[ -/]*[@-~]/g;

export function stripAnsi(text: string): string {
  return text.replace(ANSI, '');
}

/** At most `max` characters; a cut is marked with `…` (the mark counts in the limit). */
export function cap(text: string, max: number): string {
  if (text.length <= max) return text;
  return max <= 1 ? '…'.slice(0, max) : text.slice(0, max - 1) + '…';
}

/** Drops the sandbox root from paths so reports show `src/retry.ts`, not a temp directory. */
export function relativize(text: string, root: string | undefined): string {
  if (!root) return text;
  const r = root.endsWith('/') ? root : root + '/';
  return text
    .split('file://' + r)
    .join('')
    .split(r)
    .join('');
}
