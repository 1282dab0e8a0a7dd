/**
 * <course-workspace>: turns the server-rendered exercise (text areas with the starter code) into a
 * workspace: saved code, a runner chosen at load (a WebContainer boots only on the first Run), results,
 * reset/undo, solution and download. The editor (CodeMirror + the TypeScript worker) loads only when
 * the learner first uses the code area.
 */
import type { Exercise } from '../grading/core/index.ts';
import type { Report } from '../grading/core/index.ts';
import { reportExerciseGraded, reportSolutionShown } from '../progress/exercise-events.ts';
import { fetchBundle } from '../runner/bundle.ts';
import { latestWinsQueue } from '../runner/run-queue.ts';
import { canRun, initialState, next, type RunnerEvent, type RunnerState } from '../runner/run-state.ts';
import { RunnerInputError, type Runner, type RunProgress, type UnavailableReason } from '../runner/runner-types.ts';
import { browserTraits, selectRunner, startWebContainerOnDemand } from '../runner/select-runner.ts';
import { BOOT_TIMEOUT_MS } from '../runner/webcontainer/boot.ts';
import { suiteUrl } from '../runner/worker/suite-paths.ts';
import { createWorkerRunner } from '../runner/worker/worker-runner.ts';
import { downloadFiles } from './download.ts';
import { FilesModel } from './files-model.ts';
import { readWrap, writeWrap } from './wrap-preference.ts';
import { fill, renderReport, runningText, type Strings } from './results-view.ts';
import { elementLang, elementStrings } from '../i18n/index.ts';
import type { Lang } from '../i18n/index.ts';

/** Where the code is shown: the plain text areas, then the editor once it has loaded. */
export interface CodeView {
  set(path: string, text: string): void;
  /** Focuses a file's code, with the caret at `offset` when given. */
  focus(path?: string, offset?: number): void;
  /** Soft-wraps long lines, or not. */
  wrap(on: boolean): void;
}

/** `?runner=worker` or `?runner=webcontainer` picks that runner (diagnostics: see docs/architecture.md, "Runners"). */
function forcedRunner(search: string): 'worker' | 'webcontainer' | undefined {
  const wanted = new URLSearchParams(search).get('runner');
  return wanted === 'worker' || wanted === 'webcontainer' ? wanted : undefined;
}

/** "graded in this page", or by the local runner and whether its sandbox confined the code. */
function gradedBy(kind: string, report: Report, s: Record<string, string>): string {
  const where = s[`ws.gradedBy.${kind}`]!;
  if (!report.sandbox) return where;
  const how = report.sandbox.confined ? fill(s['ws.gradedBy.confined']!, { mechanism: report.sandbox.mechanism }) : s['ws.gradedBy.unconfined']!;
  return `${where} (${how})`;
}

/** localStorage, or undefined where reading it throws (storage disabled). */
function storageOrUndefined(): Storage | undefined {
  try {
    return localStorage;
  } catch {
    return undefined;
  }
}

const REASON_KEY: Record<UnavailableReason, keyof Strings> = {
  'not-isolated': 'ws.unavailable.notIsolated',
  unsupported: 'ws.unavailable.unsupported',
  unreachable: 'ws.unavailable.unreachable',
  'install-failed': 'ws.unavailable.installFailed',
  'token-missing': 'ws.unavailable.tokenMissing',
};

export class CourseWorkspace extends HTMLElement {
  /** Every ws.* string of the page's language, from data-strings (set before anything renders). */
  #s!: Strings;
  #id = '';
  #lang!: Lang;
  #inBrowser: 'worker' | 'webcontainer' = 'webcontainer';
  #model!: FilesModel;
  #view!: CodeView;
  #state: RunnerState = initialState;
  #runner: Runner | undefined;
  #hasRun = false;
  #editorLoading: Promise<void> | undefined;
  #starterFiles: Record<string, string> = {};
  #ticker: ReturnType<typeof setInterval> | undefined;
  /** Tests done out of those collected, for the run in progress (runners that report it). */
  #progress: RunProgress | undefined;
  #request = latestWinsQueue((files: Record<string, string>) => this.#grade(files));

  connectedCallback() {
    if (this.#id) return;
    this.#s = elementStrings(this);
    this.#id = this.dataset.exercise ?? '';
    this.#lang = elementLang(this);
    this.#inBrowser = this.dataset.inBrowser === 'worker' ? 'worker' : 'webcontainer';
    const areas = [...this.querySelectorAll<HTMLTextAreaElement>('textarea[data-code]')];
    this.#starterFiles = Object.fromEntries(areas.map((a) => [a.dataset.code!, a.defaultValue]));
    const editable = areas.filter((a) => !a.readOnly).map((a) => a.dataset.code!);
    this.#model = new FilesModel({ exerciseId: this.#id, starter: this.#starterFiles, editable, store: localStorage });
    this.#view = {
      set: (path, text) => {
        const area = areas.find((a) => a.dataset.code === path);
        if (area) area.value = text;
      },
      focus: (path) => (areas.find((a) => a.dataset.code === path) ?? areas[0])?.focus(),
      wrap: (on) => {
        for (const a of areas) a.wrap = on ? 'soft' : 'off';
      },
    };
    // "Wrap long lines": the learner's choice, kept for every exercise page.
    const wrapToggle = this.querySelector<HTMLInputElement>('[data-wrap-toggle]')!;
    wrapToggle.checked = readWrap(storageOrUndefined());
    this.#view.wrap(wrapToggle.checked);
    wrapToggle.addEventListener('change', () => {
      writeWrap(storageOrUndefined(), wrapToggle.checked);
      this.#view.wrap(wrapToggle.checked);
    });
    for (const a of areas) {
      a.value = this.#model.get(a.dataset.code!);
      a.addEventListener('input', () => this.#edited(a.dataset.code!, a.value));
    }
    if (this.#model.restored) this.#notice(fill(this.#s['ws.restored']!, { when: new Date(this.#model.restored.savedAt).toLocaleString(this.#lang) }));

    for (const node of this.querySelectorAll<HTMLElement>('[data-actions]')) node.hidden = false;
    this.querySelector<HTMLElement>('[data-state]')!.hidden = false;
    this.addEventListener('click', (e) => this.#onClick(e));
    this.addEventListener('keydown', (e) => this.#onKeydown(e), { capture: true });
    // The editor loads when the code area is first used (focus, click or typing), not with the page.
    const loadEditor = () => void this.#loadEditor();
    for (const a of areas) {
      a.addEventListener('focus', loadEditor, { once: true });
      a.addEventListener('pointerdown', loadEditor, { once: true });
    }
    addEventListener('pagehide', () => this.#model.flush());
    document.addEventListener('visibilitychange', () => document.visibilityState === 'hidden' && this.#model.flush());
    this.#render();
    void this.#startRunner();
  }

  #edited(path: string, text: string) {
    this.#model.edit(path, text);
    if (!this.#model.canUndo()) this.#clearUndo();
  }

  async #loadEditor(): Promise<void> {
    this.#editorLoading ??= (async () => {
      const { mountEditors } = await import('./editor/mount-editor.ts');
      // Read focus only now, once the editor has loaded: on the first click the text area takes focus
      // (with its caret where the learner clicked) after the pointerdown that started the load, and
      // the learner may have typed meanwhile. The editor takes over that caret, so no keystroke is lost.
      const active = document.activeElement;
      const caret =
        active instanceof HTMLTextAreaElement && active.dataset.code && this.contains(active)
          ? { path: active.dataset.code, offset: active.selectionStart }
          : undefined;
      this.#view = await mountEditors({
        root: this,
        exerciseId: this.#id,
        model: this.#model,
        onChange: (path, text) => this.#edited(path, text),
        label: (file) => fill(this.#s['ws.editorLabel']!, { file }),
        wrap: this.querySelector<HTMLInputElement>('[data-wrap-toggle]')!.checked,
      });
      this.dataset.editor = 'ready';
      if (caret) this.#view.focus(caret.path, caret.offset);
    })().catch((err: unknown) => {
      // The text areas keep working: the learner loses nothing but highlighting.
      console.warn('editor failed to load', err);
      this.#editorLoading = undefined;
    });
    return this.#editorLoading;
  }

  async #startRunner() {
    const selection = await selectRunner({
      fetch: (input, init) => fetch(input, init),
      traits: browserTraits(window),
      inBrowser: this.#inBrowser,
      force: forcedRunner(location.search),
      createWorkerRunner: () =>
        createWorkerRunner({
          createWorker: () => new Worker(new URL('../runner/worker/grade-worker.ts', import.meta.url), { type: 'module', name: 'grading' }) as never,
          createChildWorker: () =>
            new Worker(new URL('../runner/worker/process-worker.ts', import.meta.url), { type: 'module', name: 'child process' }) as never,
          loadExercise: async (id) => ((await import(/* @vite-ignore */ suiteUrl(id))) as { exercise: Exercise }).exercise,
          loadTestList: async (id) => ((await import(/* @vite-ignore */ suiteUrl(id))) as { testList: string[] | null }).testList ?? undefined,
          suiteUrl,
        }),
      onEvent: (e) => this.#dispatch(e),
    });
    if ('runner' in selection) this.#runner = selection.runner;
    // Said once, in the workspace: this tab grades in the page because the local runner serving it refused
    // the tab (no runner at all is the fallback's reason instead).
    this.querySelector<HTMLElement>('[data-runner-token-missing]')!.hidden = !('runner' in selection && selection.tokenMissing);
  }

  /** Boots the WebContainer (first Run, or Try again): only exercises that need Node ever load it. */
  async #startWebContainer(): Promise<boolean> {
    this.#runner = await startWebContainerOnDemand({
      start: async (hooks) => {
        const [{ startInBrowser }, bundle] = await Promise.all([import('../runner/webcontainer/in-browser.ts'), fetchBundle(this.#id)]);
        return startInBrowser(bundle, hooks);
      },
      onEvent: (e) => this.#dispatch(e),
      onInstalled: (command) => this.#notice(fill(this.#s['ws.installedWith']!, { command })),
      onError: (message) => this.#notice(fill(this.#s['ws.webcontainerError']!, { message })),
    });
    return this.#runner !== undefined;
  }

  #dispatch(event: RunnerEvent) {
    this.#state = next(this.#state, event);
    this.#render();
  }

  /** Grades the current files (Run button, Ctrl/Cmd+Enter). */
  run(): void {
    if (this.#state.phase === 'standby') {
      // On iOS the boot waits for the explicit "Start" button (a WebContainer may crash the tab there).
      if (!this.#state.consent) void this.#startWebContainer().then((ok) => ok && this.run());
      return;
    }
    if (!this.#runner || (!canRun(this.#state) && this.#state.phase !== 'running')) return;
    if (this.#state.phase === 'running') this.#notice(this.#s['ws.queued']!);
    this.#model.flush();
    void this.#request(this.#model.editableFiles());
  }

  /**
   * Grades `files` with this page's runner and returns the report, leaving the editor, the results and
   * the learner's progress alone (the end-to-end parity check and the benchmarks call it).
   */
  gradeFiles(files: Record<string, string>): Promise<Report> {
    if (!this.#runner) return Promise.reject(new Error(`no runner (${this.#state.phase})`));
    return this.#runner.grade({ exerciseId: this.#id, files, lang: this.#lang });
  }

  async #grade(files: Record<string, string>): Promise<void> {
    const runner = this.#runner!;
    this.#progress = undefined; // before the run's first render: never the last run's "55/55 tests done"
    this.#dispatch({ type: 'run', at: performance.now() });
    let report: Report;
    try {
      report = await runner.grade({ exerciseId: this.#id, files, lang: this.#lang }, (progress) => {
        this.#progress = progress;
        if (this.#state.phase === 'running') this.#showRunning(this.#state.startedAt);
      });
    } catch (err) {
      const message =
        err instanceof RunnerInputError ? err.message : fill(this.#s['ws.runFailed']!, { message: err instanceof Error ? err.message : String(err) });
      this.#dispatch({ type: 'error', message });
      this.#afterRun();
      return;
    }
    this.#dispatch({ type: 'graded', report, at: performance.now() });
    this.#afterRun();
    reportExerciseGraded({ exerciseId: this.#id, status: report.status, passed: report.counts.passed, total: report.counts.total, runner: runner.kind });
  }

  #afterRun() {
    this.#hasRun = true;
    // Absent from a site built without the solutions (COURSE_HIDE_SOLUTIONS=1).
    const solution = this.querySelector<HTMLElement>('[data-action="solution"]');
    if (solution) solution.hidden = false;
  }

  #render() {
    const s = this.#s;
    const st = this.#state;
    this.dataset.phase = st.phase;
    const stateLine = this.querySelector<HTMLElement>('[data-state]')!;
    const runnerLine = 'kind' in st && st.kind ? s[`ws.runner.${st.kind}`]! + ' ' : '';
    const phaseText =
      st.phase === 'preparing'
        ? st.kind === 'webcontainer'
          ? s['ws.state.booting']
          : s['ws.state.preparing']
        : st.phase === 'unavailable'
          ? s['ws.unavailable.title']
          : st.phase === 'standby'
            ? s[st.consent ? 'ws.state.consent' : 'ws.state.standby']
            : s[`ws.state.${st.phase}`];
    stateLine.textContent = `${runnerLine}${phaseText}`;
    // While a run goes the button is off (aria-disabled, so it keeps the focus it was clicked with);
    // Ctrl/Cmd+Enter from the editor still queues the code as it is then.
    const runButton = this.querySelector<HTMLButtonElement>('[data-action="run"]')!;
    runButton.disabled = !canRun(st) && st.phase !== 'running';
    runButton.setAttribute('aria-busy', String(st.phase === 'running'));
    runButton.setAttribute('aria-disabled', String(st.phase === 'running'));

    this.querySelector<HTMLElement>('[data-start-actions]')!.hidden = !(st.phase === 'standby' && st.consent);
    const fallback = this.querySelector<HTMLElement>('[data-fallback]')!;
    fallback.hidden = st.phase !== 'unavailable';
    fallback.querySelector<HTMLElement>('[data-retry-actions]')!.hidden = !(st.phase === 'unavailable' && st.retry);
    if (st.phase === 'unavailable') {
      fallback.querySelector('[data-fallback-reason]')!.textContent = fill(s[REASON_KEY[st.reason]]!, { seconds: BOOT_TIMEOUT_MS / 1000 });
    }
    const summary = this.querySelector<HTMLElement>('[data-summary]')!;
    const list = this.querySelector<HTMLElement>('[data-results]')!;
    // While a run is going, the summary counts the seconds (a slow run shows it is alive).
    clearInterval(this.#ticker);
    if (st.phase === 'running') {
      const tick = () => this.#showRunning(st.startedAt);
      tick();
      this.#ticker = setInterval(tick, 1000);
    } else if (st.phase === 'done')
      summary.textContent = `${renderReport(list, st.report, st.elapsedMs, s, this.#lang, JSON.parse(this.dataset.testNames ?? '{}'))} · ${gradedBy(st.kind, st.report, s)}`;
    else if (st.phase === 'failed') {
      summary.textContent = st.message;
      list.replaceChildren();
    }
  }

  /** The summary while a run goes: seconds so far and, where the runner reports it, tests done. */
  #showRunning(startedAt: number) {
    this.querySelector<HTMLElement>('[data-summary]')!.textContent = runningText(performance.now() - startedAt, this.#s, this.#progress);
  }

  #onKeydown(e: KeyboardEvent) {
    if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      e.stopPropagation(); // CodeMirror binds Mod-Enter to "insert blank line"
      this.run();
      return;
    }
    const tab = (e.target as HTMLElement).closest<HTMLElement>('[role="tab"]');
    if (tab && (e.key === 'ArrowRight' || e.key === 'ArrowLeft')) {
      const tabs = [...this.querySelectorAll<HTMLElement>('[role="tab"]')];
      const i = tabs.indexOf(tab) + (e.key === 'ArrowRight' ? 1 : -1);
      const target = tabs[(i + tabs.length) % tabs.length]!;
      this.#selectTab(target);
      target.focus();
      e.preventDefault();
    }
  }

  #selectTab(tab: HTMLElement) {
    for (const t of this.querySelectorAll<HTMLElement>('[role="tab"]')) {
      const on = t === tab;
      t.setAttribute('aria-selected', String(on));
      t.tabIndex = on ? 0 : -1;
      this.querySelector<HTMLElement>(`#${t.getAttribute('aria-controls')}`)!.hidden = !on;
    }
  }

  async #onClick(e: MouseEvent) {
    const target = (e.target as HTMLElement).closest<HTMLElement>('button');
    if (!target) return;
    if (target.getAttribute('role') === 'tab') return this.#selectTab(target);
    switch (target.dataset.action) {
      case 'run':
        if (this.#state.phase === 'running') return; // off until this run ends
        return this.run();
      case 'start-webcontainer': // the explicit start on iOS
      case 'retry': // after a failed boot or install
        if (await this.#startWebContainer()) this.run();
        return;
      case 'reset':
        if (confirm(this.#s['ws.resetConfirm']!)) this.#replace(this.#starterFiles, this.#s['ws.resetDone']!);
        return;
      case 'solution': {
        if (!this.#hasRun || !confirm(this.#s['ws.solutionConfirm']!)) return;
        try {
          this.#replace((await fetchBundle(this.#id)).solution, this.#s['ws.solutionDone']!);
          reportSolutionShown(this.#id); // progress and submissions say a pass after this is not the learner's own
        } catch (err) {
          this.#notice(fill(this.#s['ws.runFailed']!, { message: String(err) }));
        }
        return;
      }
      case 'download':
        return downloadFiles(this.#id, this.#model.editableFiles());
      case 'undo':
        if (this.#model.undo()) {
          this.#showAll();
          this.#notice(this.#s['ws.undone']!);
        }
        return;
    }
  }

  #replace(files: Record<string, string>, message: string) {
    this.#model.replace(files);
    this.#showAll();
    this.#notice(message, true);
  }

  #showAll() {
    for (const path of Object.keys(this.#starterFiles)) this.#view.set(path, this.#model.get(path));
  }

  #notice(text: string, undo = false) {
    const box = this.querySelector<HTMLElement>('[data-notice]')!;
    box.textContent = text;
    if (undo) {
      const button = document.createElement('button');
      button.type = 'button';
      button.dataset.action = 'undo';
      button.textContent = this.#s['ws.undo']!;
      box.append(button);
    }
  }

  #clearUndo() {
    this.querySelector('[data-notice] [data-action="undo"]')?.remove();
  }
}
