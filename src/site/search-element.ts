/**
 * <course-search>: a dialog over Pagefind's index. Pagefind picks the index of the page's <html lang>,
 * so a Vietnamese page searches the Vietnamese lessons. The index is loaded on first open only.
 */
import { searchVariants } from './search-query.ts';

interface PagefindResult {
  url: string;
  excerpt: string;
  meta: { title?: string };
}
interface Pagefind {
  search(query: string): Promise<{ results: { id: string; data(): Promise<PagefindResult> }[] }>;
}

export class CourseSearch extends HTMLElement {
  #pagefind?: Promise<Pagefind | undefined>;
  #strings: Record<string, string> = {};
  #generation = 0;

  connectedCallback() {
    this.#strings = JSON.parse(this.dataset.strings ?? '{}');
    const dialog = this.querySelector('dialog')!;
    const input = this.querySelector<HTMLInputElement>('[data-input]')!;
    this.querySelector('[data-open]')!.addEventListener('click', () => {
      dialog.showModal();
      input.focus();
      this.#pagefind ??= this.#load();
    });
    input.addEventListener('input', () => void this.#search(input.value));
    window.addEventListener('keydown', (event) => {
      if (event.key === '/' && !(event.target instanceof HTMLInputElement || event.target instanceof HTMLTextAreaElement)) {
        event.preventDefault();
        (this.querySelector('[data-open]') as HTMLButtonElement).click();
      }
    });
  }

  async #load(): Promise<Pagefind | undefined> {
    try {
      const url = '/pagefind/pagefind.js';
      return (await import(/* @vite-ignore */ url)) as Pagefind;
    } catch {
      this.#status(this.#strings.unavailable ?? '');
      return undefined;
    }
  }

  async #search(query: string) {
    const generation = ++this.#generation;
    const list = this.querySelector('[data-results]')!;
    const pagefind = await (this.#pagefind ??= this.#load());
    if (!pagefind || generation !== this.#generation) return;
    if (!query.trim()) {
      list.replaceChildren();
      this.#status('');
      return;
    }
    const found = new Map<string, { id: string; data(): Promise<PagefindResult> }>();
    for (const variant of searchVariants(query)) {
      for (const r of (await pagefind.search(variant)).results) if (!found.has(r.id)) found.set(r.id, r);
    }
    const results = await Promise.all([...found.values()].slice(0, 10).map((r) => r.data()));
    if (generation !== this.#generation) return;
    list.replaceChildren(
      ...results.map((r) => {
        const item = document.createElement('li');
        const link = document.createElement('a');
        link.href = r.url;
        link.textContent = r.meta.title ?? r.url;
        const excerpt = document.createElement('p');
        excerpt.innerHTML = r.excerpt; // Pagefind escapes page text and adds only <mark>.
        item.append(link, excerpt);
        return item;
      }),
    );
    this.#status(
      results.length
        ? (this.#strings.results ?? '').replace('{count}', String(results.length))
        : (this.#strings.noResults ?? '').replace('{query}', query),
    );
  }

  #status(text: string) {
    this.querySelector('[data-status]')!.textContent = text;
  }
}
