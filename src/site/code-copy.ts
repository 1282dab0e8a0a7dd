/** Adds a copy button to every highlighted code block. The page reads fine without it. */
export function enhanceCodeBlocks(root: ParentNode, strings: Record<string, string>): void {
  // Wide tables scroll sideways on a phone; a scrollable region must be reachable by keyboard.
  for (const table of root.querySelectorAll<HTMLTableElement>('.prose table')) table.tabIndex = 0;
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
    button.textContent = strings.copy ?? 'Copy';
    button.setAttribute('aria-label', strings.label ?? 'Copy');
    button.addEventListener('click', async () => {
      try {
        await navigator.clipboard.writeText(pre.innerText);
        button.textContent = strings.copied ?? 'Copied';
      } catch {
        button.textContent = strings.failed ?? 'Copy failed';
      }
      setTimeout(() => (button.textContent = strings.copy ?? 'Copy'), 2000);
    });
    wrapper.append(button);
  }
}
