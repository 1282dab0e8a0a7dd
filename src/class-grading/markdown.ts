/**
 * The inline Markdown of the course's rule texts and hints (`code`, **bold**), as HTML with
 * everything else escaped, or as plain text for an LMS comment box. Only these two marks: the texts
 * are the course's own, and anything else stays literal. Pure.
 */
const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escapeText = (text: string) => text.replace(/[&<>"']/g, (ch) => ESCAPES[ch]!);

/** `a \`b\` **c**` -> `a <code>b</code> <strong>c</strong>`; the rest escaped. */
export function inlineMarkdownHtml(text: string): string {
  return text
    .split(/(`[^`\n]+`)/)
    .map((part) =>
      part.length > 2 && part.startsWith('`') && part.endsWith('`')
        ? `<code>${escapeText(part.slice(1, -1))}</code>`
        : escapeText(part).replace(/\*\*([^*\n]+)\*\*/g, '<strong>$1</strong>'),
    )
    .join('');
}

/** Marks removed (for text that is not rendered as Markdown). */
export const inlineMarkdownText = (text: string) => text.replace(/`([^`\n]+)`/g, '$1').replace(/\*\*([^*\n]+)\*\*/g, '$1');
