/**
 * <course-search>: a dialog over Pagefind's index. Pagefind picks the index of the page's <html lang>,
 * so a Vietnamese page searches the Vietnamese lessons. The index is loaded on first open only.
 */
import { elementStrings, fillPlaceholders } from '../i18n/index.ts';
import type { UiStrings } from '../i18n/ui/index.ts';
import { searchQueries } from './search-query.ts';
import { rankResults } from './search-rank.ts';
import { correctedQuery, type Vocabulary } from './search-suggest.ts';

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
  /** The words of the course, fetched with the first search (search-suggest.ts). */
  #vocabulary?: Promise<Vocabulary>;

  connectedCallback() {
    this.#strings = elementStrings(this);
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
    // The words of the course load beside the first search: a word that is none of them, nor the
    // start of one ("retyr"), is corrected to the nearest ("retry"), and the status says so.
    const vocabulary = (this.#vocabulary ??= this.#loadVocabulary());
    let shown = query;
    let found = await this.#find(pagefind, query);
    if (generation !== this.#generation) return;
    const corrected = correctedQuery(query, await vocabulary);
    if (generation !== this.#generation) return;
    if (corrected) {
      const better = await this.#find(pagefind, corrected);
      if (generation !== this.#generation) return;
      if (better.results.length) {
        found = better;
        shown = corrected;
      }
    }
    const { results, total } = found;
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
    const count = !results.length
      ? fillPlaceholders(this.#strings['search.noResults'], { query })
      : total > results.length
        ? fillPlaceholders(this.#strings['search.resultsOf'], { shown: results.length, count: total })
        : fillPlaceholders(this.#strings['search.results'], { count: results.length });
    this.#status(shown !== query && results.length ? `${fillPlaceholders(this.#strings['search.corrected'], { query, suggestion: shown })} ${count}` : count);
  }

  /**
   * Pagefind's matches for every variant of the query, re-ranked; the first SHOWN of them, and how
   * many pages matched in all (those past the RERANKED that were looked at counted as matches too).
   */
  async #find(pagefind: Pagefind, query: string): Promise<{ results: PagefindResult[]; total: number }> {
    const found = new Map<string, { id: string; data(): Promise<PagefindResult> }>();
    for (const variant of searchQueries(query)) {
      for (const r of (await pagefind.search(variant)).results) if (!found.has(r.id)) found.set(r.id, r);
    }
    const loaded = await Promise.all([...found.values()].slice(0, RERANKED).map((r) => r.data()));
    const ranked = rankResults(
      query,
      loaded.map((r) => ({ ...r, title: r.meta.title ?? '' })),
    );
    return { results: ranked.slice(0, SHOWN), total: ranked.length + Math.max(0, found.size - loaded.length) };
  }

  async #loadVocabulary(): Promise<Vocabulary> {
    try {
      const lang = document.documentElement.lang === 'en' ? 'en' : 'vi';
      const res = await fetch(`/${lang}/search-words.json`);
      return res.ok ? ((await res.json()) as Vocabulary) : [];
    } catch {
      return [];
    }
  }

  #status(text: string) {
    this.querySelector('[data-status]')!.textContent = text;
  }
}
