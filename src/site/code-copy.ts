/** Adds a copy button to every highlighted code block. The page reads fine without it. */
import type { UiStrings } from '../i18n/ui/index.ts';

/** What CodeCopy.astro hands over (stringsWithPrefix). */
export type CodeCopyStrings = UiStrings<'lesson.copy' | 'lesson.copied' | 'lesson.scrollCue'>;

export function enhanceCodeBlocks(root: ParentNode, strings: CodeCopyStrings): void {
  // Wide tables scroll sideways on a phone; a scrollable region must be reachable by keyboard.
  for (const table of root.querySelectorAll<HTMLTableElement>('.prose table')) {
    table.tabIndex = 0;
    addScrollCue(table, strings['lesson.scrollCue']);
  }
  for (const pre of root.querySelectorAll<HTMLPreElement>('pre.astro-code')) {
    if (pre.parentElement?.classList.contains('code-block')) continue;
    const wrapper = document.createElement('div');
    wrapper.className = 'code-block';
    pre.replaceWith(wrapper);
    wrapper.append(pre);
    pre.tabIndex = 0; // scrollable regions must be reachable by keyboard
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'button copy-button';
    button.textContent = strings['lesson.copy'];
    button.setAttribute('aria-label', strings['lesson.copyLabel']);
    button.addEventListener('click', async () => {
      try {
        await navigator.clipboard.writeText(pre.innerText);
        button.textContent = strings['lesson.copied'];
      } catch {
        button.textContent = strings['lesson.copyFailed'];
      }
      setTimeout(() => (button.textContent = strings['lesson.copy']), 2000);
    });
    wrapper.append(button);
  }
}

/**
 * A fade with an arrow on the right edge of a table that scrolls sideways, until the reader reaches
 * its last column. The wrapper takes no room of its own (the table's margins collapse through it), so
 * adding it shifts nothing; the cue floats over the table.
 */
function addScrollCue(table: HTMLTableElement, label: string): void {
  if (table.parentElement?.classList.contains('table-scroll')) return;
  const wrapper = document.createElement('div');
  wrapper.className = 'table-scroll';
  table.replaceWith(wrapper);
  wrapper.append(table);
  const cue = document.createElement('span');
  cue.className = 'scroll-cue';
  cue.dataset.scrollCue = '';
  cue.title = label;
  cue.setAttribute('aria-hidden', 'true'); // the table itself is a focusable region that scrolls
  cue.textContent = '→';
  wrapper.append(cue);
  const update = () => {
    cue.hidden = table.scrollWidth <= table.clientWidth + 1 || table.scrollLeft + table.clientWidth >= table.scrollWidth - 1;
  };
  new ResizeObserver(update).observe(table);
  table.addEventListener('scroll', update, { passive: true });
  document.addEventListener('course:lab-rendered', update); // a lab rewrites its table's rows
  update();
}
