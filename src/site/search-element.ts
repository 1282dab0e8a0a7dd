/**
 * <course-search>: a dialog over Pagefind's index. Pagefind picks the index of the page's <html lang>,
 * so a Vietnamese page searches the Vietnamese lessons. The index is loaded on first open only.
 */
import { fillPlaceholders } from '../i18n/fill.ts';
import type { UiStrings } from '../i18n/ui/index.ts';
import { searchVariants } from './search-query.ts';
import { rankResults } from './search-rank.ts';

interface PagefindResult {
  url: string;
  excerpt: string;
  content: string;
  meta: { title?: string };
}
/** Pagefind's best matches re-ranked here (each costs one small fragment request). */
const RERANKED = 20;
const SHOWN = 10;
interface Pagefind {
  search(query: string): Promise<{ results: { id: string; data(): Promise<PagefindResult> }[] }>;
}

/**
 * Whether a key typed here is text for the page (a form field, a CodeMirror editor, any
 * contenteditable), so `/` must stay a slash there instead of opening search.
 */
export function isEditable(target: EventTarget | null): boolean {
  if (!(target instanceof Element)) return false;
  if (target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  return (target as HTMLElement).isContentEditable || target.closest('[contenteditable]:not([contenteditable="false"])') !== null;
}

export class CourseSearch extends HTMLElement {
  #pagefind?: Promise<Pagefind | undefined>;
  /** Every search.* string of the page's language, from data-strings. */
  #strings!: UiStrings<'search.'>;
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
      if (event.key === '/' && !event.ctrlKey && !event.metaKey && !event.altKey && !isEditable(event.target)) {
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
      this.#status(this.#strings['search.unavailable']);
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
    const loaded = await Promise.all([...found.values()].slice(0, RERANKED).map((r) => r.data()));
    const results = rankResults(
      query,
      loaded.map((r) => ({ ...r, title: r.meta.title ?? '' })),
    ).slice(0, SHOWN);
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
        ? fillPlaceholders(this.#strings['search.results'], { count: results.length })
        : fillPlaceholders(this.#strings['search.noResults'], { query }),
    );
  }

  #status(text: string) {
    this.querySelector('[data-status]')!.textContent = text;
  }
}
