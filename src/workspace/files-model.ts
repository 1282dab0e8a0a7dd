/**
 * The learner's files for one exercise: current text, debounced saving to browser storage, and the
 * one-step undo behind "Reset to starter" and "Show solution". Knows nothing of the DOM.
 */
import type { KeyValueStore } from '../storage/key-value-store.ts';
import { loadSavedCode, saveCode, type SavedCode } from '../storage/saved-code.ts';

export interface FilesModelOptions {
  exerciseId: string;
  /** Every file of the exercise with its starter text. */
  starter: Record<string, string>;
  editable: readonly string[];
  store: KeyValueStore;
  debounceMs?: number;
  now?: () => Date;
}

export class FilesModel {
  private files: Record<string, string>;
  private undoSnapshot: Record<string, string> | undefined;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** The saved entry restored at start, if any. */
  readonly restored: SavedCode | undefined;

  constructor(private readonly opts: FilesModelOptions) {
    this.files = { ...opts.starter };
    const saved = loadSavedCode(opts.store, opts.exerciseId);
    if (saved && opts.editable.every((p) => typeof saved.files[p] === 'string')) {
      for (const p of opts.editable) this.files[p] = saved.files[p]!;
      this.restored = saved;
    }
  }

  get(path: string): string {
    return this.files[path] ?? '';
  }

  /** Only the editable files: what is graded, saved and downloaded. */
  editableFiles(): Record<string, string> {
    return Object.fromEntries(this.opts.editable.map((p) => [p, this.files[p] ?? '']));
  }

  edit(path: string, text: string): void {
    if (!this.opts.editable.includes(path) || this.files[path] === text) return;
    this.files[path] = text;
    this.undoSnapshot = undefined; // an edit after a reset makes the old code unreachable by design: undo is one step
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.flush(), this.opts.debounceMs ?? 300);
  }

  /** Writes now (the page is being hidden or a run starts). Storage failures keep the code in memory. */
  flush(): boolean {
    clearTimeout(this.timer);
    this.timer = undefined;
    try {
      saveCode(this.opts.store, this.opts.exerciseId, this.editableFiles(), this.opts.now?.());
      return true;
    } catch {
      return false;
    }
  }

  /** Replaces the editable files (starter or solution), keeping the current ones for undo. */
  replace(next: Record<string, string>): void {
    const before = this.editableFiles();
    for (const p of this.opts.editable) if (typeof next[p] === 'string') this.files[p] = next[p]!;
    this.undoSnapshot = before;
    this.flush();
  }

  canUndo(): boolean {
    return this.undoSnapshot !== undefined;
  }

  undo(): boolean {
    if (!this.undoSnapshot) return false;
    const snapshot = this.undoSnapshot;
    this.undoSnapshot = undefined;
    Object.assign(this.files, snapshot);
    this.flush();
    return true;
  }
}
