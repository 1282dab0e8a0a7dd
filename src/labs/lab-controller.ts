/**
 * The interactive part of a lab, loaded lazily by <course-lab>: reads the form, runs the simulation in
 * a Web Worker on every change (latest request wins; a run nobody wants any more is abandoned), and
 * redraws the figures, tables and charts. Nothing here blocks the page for long: the heavy work is in
 * the worker, and drawing 6 thinned series takes a few milliseconds.
 */
import { getSim, toAssignments, validateParams, validateSimParams, type AnySim, type GanttChart, type NumberParamSpec, type Text } from '../sims/index.ts';
import { formatNumber, withUnit, type Lang } from './number-format.ts';
import { ganttSvg } from './gantt-svg.ts';
import { keyFigures, type LabView, type PreparedXY } from './prepare.ts';
import { LatestOnly, type RunRequest, type RunResponse } from './protocol.ts';
import { labelKeys } from './param-labels.ts';
import { chartTableHtml, cliCommand, figuresHtml, ganttTableHtml, legendHtml, namesOf, resultsTableHtml, type RenderWords } from './render.ts';
import { nudge, sliderScale, type SliderScale } from './slider-scale.ts';
import { LabPlot, readTheme } from './uplot-chart.ts';
import { defaultState, hashToState, stateToHash, type FocusSpec, type LabState } from './url-state.ts';
import { pageProgress } from '../progress/browser-store.ts';
import { onExerciseGraded } from '../progress/exercise-events.ts';
import { codeKey, learnerFiles, type LearnerFiles } from './learner-code.ts';
import { escapeHtml } from './render.ts';
import { fillPlaceholders } from '../i18n/index.ts';
import { elementLang, elementStrings } from '../i18n/index.ts';
import type { UiStrings } from '../i18n/ui/index.ts';

/** What Lab.astro hands over: every lab.* string (stringsWithPrefix), and the words the render functions take. */
type Strings = UiStrings<'lab.'> & { words: RenderWords };
/** A lab.* key without its prefix: `#t('copied')` reads 'lab.copied'. */
type LabWord = keyof UiStrings<'lab.'> extends `lab.${infer W}` ? W : never;

const CACHE_SIZE = 12;
const MAX_POINTS = 1600;
const TABLE_ROWS = 40;
const SEED_MAX = 0xffffffff;
/** How long the learner's code may keep the lab's worker busy before it is stopped (an endless loop). */
export const LEARNER_LIMIT_MS = 10_000;

const fill = fillPlaceholders;

export interface LabRenderedDetail {
  sim: string;
  /** ms from the change that asked for these results to the frame that shows them. */
  ms: number;
  fromCache: boolean;
  /** Time the worker spent simulating and preparing (null when the result came from the cache). */
  computeMs: number | null;
}

class LabController {
  readonly sim: AnySim;
  readonly lang: Lang;
  readonly strings: Strings;
  readonly focusSpec: FocusSpec | null;
  readonly form: HTMLFormElement;
  #worker: Worker | null = null;
  #latest = new LatestOnly<RunRequest>();
  #cache = new Map<string, LabView>();
  #plots = new Map<string, LabPlot>();
  #scales = new Map<string, SliderScale>();
  #view: LabView | null = null;
  #focus: string | null = null;
  #changedAt = 0;
  #lastKey = '';
  #cleanup: (() => void)[] = [];
  #learnerTimer: ReturnType<typeof setTimeout> | undefined;
  /** Why the learner's code stopped (an endless loop), shown until the box is ticked again. */
  #yoursNotice = '';
  /** Each "Your code" item's text with no saved code (its link to the exercise), to put back. */
  #noCodeHtml = new Map<string, string>();

  constructor(readonly el: HTMLElement) {
    this.sim = getSim(el.dataset.sim ?? '')!;
    this.lang = elementLang(el);
    this.strings = elementStrings<Strings>(el);
    this.focusSpec = el.dataset.focus ? (JSON.parse(el.dataset.focus) as FocusSpec) : null;
    this.form = el.querySelector<HTMLFormElement>('[data-form]')!;
    for (const spec of this.sim.params) if (spec.kind === 'int' || spec.kind === 'number') this.#scales.set(spec.key, sliderScale(spec));
  }

  #t(key: LabWord, vars: Record<string, string | number> = {}): string {
    return fill(this.strings[`lab.${key}`] ?? key, vars);
  }

  /** A validation message naming the sliders by their labels, not the simulation's keys. */
  #error(t: Text): string {
    return labelKeys(t[this.lang], this.sim.params, this.lang);
  }

  start(): void {
    const on = <K extends keyof HTMLElementEventMap>(target: EventTarget, type: K | string, fn: (e: Event) => void): void => {
      target.addEventListener(type, fn);
      this.#cleanup.push(() => target.removeEventListener(type, fn));
    };
    on(this.form, 'input', (e) => this.#onInput(e.target as HTMLElement));
    on(this.form, 'change', (e) => this.#onInput(e.target as HTMLElement));
    on(this.form, 'submit', (e) => e.preventDefault());
    on(this.form, 'click', (e) => {
      const button = (e.target as HTMLElement).closest<HTMLButtonElement>('[data-nudge]');
      if (button) this.#nudge(button.dataset.nudge!, button.dataset.dir === '-1' ? -1 : 1);
    });
    for (const box of this.el.querySelectorAll<HTMLInputElement>('[data-log-scale]')) {
      box.closest<HTMLElement>('.lab-scale')!.hidden = false;
      on(box, 'change', () => this.#plots.get(box.dataset.logScale!)?.setLogY(box.checked));
    }
    on(this.el.querySelector('[data-reset]')!, 'click', () => this.reset());
    on(this.el.querySelector('[data-copy]')!, 'click', () => void this.copyLink());
    const dark = matchMedia('(prefers-color-scheme: dark)');
    on(dark, 'change', () => {
      const theme = readTheme(this.el);
      for (const p of this.#plots.values()) p.setTheme(theme);
    });
    let frame = 0;
    const resize = new ResizeObserver(() => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => this.#resize());
    });
    // The lab, not its results: on a phone the results box is display: contents and has no size of its own.
    resize.observe(this.el);
    this.#cleanup.push(() => resize.disconnect());
    on(window, 'hashchange', () => this.#applyHash());
    for (const state of this.el.querySelectorAll<HTMLElement>('[data-yours-state]')) this.#noCodeHtml.set(state.dataset.yoursState!, state.innerHTML);
    this.#refreshYours();
    // The learner saved (another tab) or graded (this page) their code: the lab runs the new code.
    on(window, 'storage', (e) => {
      if ((e as StorageEvent).key?.startsWith('course.code.')) this.#learnerChanged();
    });
    this.#cleanup.push(onExerciseGraded(() => this.#learnerChanged()));

    // A shareable link wins over the form; otherwise keep whatever is in the form (the learner may
    // have moved a slider before this script arrived, or the browser restored the values).
    if (!this.#applyHash()) this.#changed();
  }

  destroy(): void {
    clearTimeout(this.#learnerTimer);
    for (const off of this.#cleanup) off();
    for (const p of this.#plots.values()) p.destroy();
    this.#worker?.terminate();
  }

  #applyHash(): boolean {
    const parsed = hashToState(this.sim, location.hash, this.focusSpec);
    if (!parsed) return false;
    this.#writeForm(parsed.state);
    this.#setFormError(parsed.errors.length ? this.#t('linkErrors', { errors: parsed.errors.map((e) => this.#error(e)).join(' ') }) : '');
    this.#changed();
    return true;
  }

  // ---- the form ----

  #input(key: string): HTMLInputElement | HTMLSelectElement {
    return this.form.querySelector<HTMLInputElement>(`[data-input="${key}"]`)!;
  }

  #writeForm(state: LabState): void {
    for (const spec of this.sim.params) {
      const input = this.#input(spec.key);
      const v = state.params[spec.key];
      if (spec.kind === 'boolean') (input as HTMLInputElement).checked = v === true;
      else input.value = String(v);
      if (spec.kind === 'int' || spec.kind === 'number') this.#syncSlider(spec, v as number);
      this.#setFieldError(spec.key, '');
    }
    this.form.querySelector<HTMLInputElement>('[data-seed]')!.value = String(state.seed);
    this.#setFieldError('seed', '');
    const select = this.form.querySelector<HTMLSelectElement>('[data-focus-select]');
    if (select) select.value = state.focus ?? '';
    this.#focus = state.focus;
  }

  #syncSlider(spec: NumberParamSpec, value: number): void {
    const slider = this.form.querySelector<HTMLInputElement>(`[data-slider="${spec.key}"]`)!;
    slider.value = String(this.#scales.get(spec.key)!.toSlider(value));
    slider.setAttribute('aria-valuetext', withUnit(formatNumber(value, this.lang), spec.unit));
  }

  #setFieldError(key: string, message: string): void {
    const box = this.form.querySelector<HTMLElement>(`[data-param="${key}"] [data-error]`);
    if (!box) return;
    box.textContent = message;
    box.hidden = !message;
    const input = key === 'seed' ? this.form.querySelector('[data-seed]') : this.#input(key);
    if (message) input?.setAttribute('aria-invalid', 'true');
    else input?.removeAttribute('aria-invalid');
  }

  #setFormError(message: string): void {
    this.form.querySelector<HTMLElement>('[data-form-error]')!.textContent = message;
  }

  #setStatus(message: string): void {
    this.form.querySelector<HTMLElement>('[data-status]')!.textContent = message;
  }

  /** The form as a lab state, or the problems that stop it from being one (each shown under its field). */
  #readForm(): LabState | null {
    const input: Record<string, unknown> = {};
    let bad = false;
    for (const spec of this.sim.params) {
      const el = this.#input(spec.key);
      let value: unknown;
      if (spec.kind === 'boolean') value = (el as HTMLInputElement).checked;
      else if (spec.kind === 'select') value = el.value;
      else value = el.value.trim() === '' ? Number.NaN : Number(el.value);
      const one = validateParams([spec], { [spec.key]: value });
      this.#setFieldError(spec.key, one.ok ? '' : one.errors.map((e) => this.#error(e)).join(' '));
      if (one.ok) input[spec.key] = value;
      else bad = true;
    }
    const seedEl = this.form.querySelector<HTMLInputElement>('[data-seed]')!;
    const seed = seedEl.value.trim() === '' ? Number.NaN : Number(seedEl.value);
    const seedOk = Number.isInteger(seed) && seed >= 0 && seed <= SEED_MAX;
    this.#setFieldError(
      'seed',
      seedOk ? '' : this.lang === 'vi' ? `Seed phải là số nguyên từ 0 đến ${SEED_MAX}.` : `The seed must be an integer from 0 to ${SEED_MAX}.`,
    );
    if (bad || !seedOk) {
      this.#setFormError(this.#t('invalid'));
      return null;
    }
    const checked = validateSimParams(this.sim, input);
    if (!checked.ok) {
      this.#setFormError(`${checked.errors.map((e) => this.#error(e)).join(' ')} ${this.#t('invalid')}`);
      return null;
    }
    this.#setFormError('');
    return { params: checked.params, seed, focus: this.#focus };
  }

  // ---- the learner's code ("use my code") ----

  #yoursBoxes(): HTMLInputElement[] {
    return [...this.form.querySelectorAll<HTMLInputElement>('[data-yours-code]')];
  }

  /** Each box: enabled when there is saved code, with whether it passes; the learner-only parameters shown when one is ticked. */
  #refreshYours(): void {
    const { store, storage } = pageProgress();
    for (const box of this.#yoursBoxes()) {
      const id = box.dataset.yoursCode!;
      const files = learnerFiles(storage, store.progress, id);
      box.disabled = !files;
      if (!files) box.checked = false;
      const state = this.form.querySelector<HTMLElement>(`[data-yours-state="${id}"]`)!;
      if (files) state.textContent = this.#t(files.notPassing ? 'yoursNotPassing' : 'yoursPassing');
      else state.innerHTML = this.#noCodeHtml.get(id) ?? '';
    }
    const on = this.#yoursBoxes().some((b) => b.checked);
    for (const param of this.form.querySelectorAll<HTMLElement>('[data-learner-only]')) param.hidden = !on;
  }

  #selectedLearner(): LearnerFiles[] {
    const { store, storage } = pageProgress();
    return this.#yoursBoxes()
      .filter((b) => b.checked)
      .map((b) => learnerFiles(storage, store.progress, b.dataset.yoursCode!))
      .filter((f): f is LearnerFiles => f !== undefined);
  }

  #learnerChanged(): void {
    this.#refreshYours();
    if (this.#yoursBoxes().some((b) => b.checked)) this.#changed();
  }

  #yoursTitle(exercise: string): string {
    return this.form.querySelector<HTMLElement>(`[data-yours-item="${exercise}"]`)?.dataset.yoursTitle ?? exercise;
  }

  /** The learner's code kept the worker busy too long: stop it, untick it, and run the lab without it. */
  #stopLearner(learner: readonly LearnerFiles[]): void {
    this.#worker?.terminate();
    this.#worker = null;
    this.#latest.reset();
    for (const box of this.#yoursBoxes()) if (learner.some((l) => l.exercise === box.dataset.yoursCode)) box.checked = false;
    this.#yoursNotice = this.#t('yoursStopped', { exercise: learner.map((l) => this.#yoursTitle(l.exercise)).join(', '), s: LEARNER_LIMIT_MS / 1000 });
    this.#refreshYours();
    this.#lastKey = '';
    this.#changed();
  }

  #renderYours(view: LabView): void {
    const box = this.el.querySelector<HTMLElement>('[data-yours-result]');
    if (!box) return;
    const lines = (view.learner ?? []).map((o) =>
      o.error
        ? `<p class="lab-yours-error" data-yours-outcome="${escapeHtml(o.exercise)}">${escapeHtml(this.#t('yoursFailed', { exercise: this.#yoursTitle(o.exercise), error: o.error[this.lang] }))}</p>`
        : `<p data-yours-outcome="${escapeHtml(o.exercise)}"><strong>${escapeHtml(o.label[this.lang])}.</strong> ${escapeHtml(o.comparison?.[this.lang] ?? '')}</p>`,
    );
    if (this.#yoursNotice) lines.push(`<p class="lab-yours-error" data-yours-stopped>${escapeHtml(this.#yoursNotice)}</p>`);
    box.innerHTML = lines.join('');
    box.hidden = lines.length === 0;
  }

  /** A ± button beside a logarithmic slider: the next nice value (slider-scale.ts), as if typed. */
  #nudge(key: string, dir: 1 | -1): void {
    const spec = this.sim.params.find((p) => p.key === key) as NumberParamSpec | undefined;
    if (!spec) return;
    const input = this.#input(key) as HTMLInputElement;
    const current = Number(input.value);
    const value = nudge(spec, Number.isFinite(current) && input.value.trim() !== '' ? current : spec.default, dir);
    input.value = String(value);
    this.#syncSlider(spec, value);
    this.#changed();
  }

  #onInput(target: HTMLElement): void {
    if (target.matches('[data-yours-code]')) {
      if ((target as HTMLInputElement).checked) this.#yoursNotice = '';
      this.#refreshYours();
    }
    if (target.matches('[data-focus-select]')) {
      this.#focus = (target as HTMLSelectElement).value || null;
      this.#changedAt = performance.now();
      if (this.#view) this.#render(this.#view, true);
      return;
    }
    const sliderKey = target.getAttribute('data-slider');
    if (sliderKey) {
      const spec = this.sim.params.find((p) => p.key === sliderKey) as NumberParamSpec;
      const value = this.#scales.get(sliderKey)!.fromSlider(Number((target as HTMLInputElement).value));
      this.#input(sliderKey).value = String(value);
      target.setAttribute('aria-valuetext', withUnit(formatNumber(value, this.lang), spec.unit));
    } else {
      const key = target.getAttribute('data-input');
      const spec = key ? this.sim.params.find((p) => p.key === key) : undefined;
      if (spec && (spec.kind === 'int' || spec.kind === 'number')) {
        const v = Number((target as HTMLInputElement).value);
        if ((target as HTMLInputElement).value.trim() !== '' && Number.isFinite(v)) this.#syncSlider(spec, Math.min(spec.max, Math.max(spec.min, v)));
      }
    }
    this.#changed();
  }

  // ---- running ----

  #key(state: LabState, learner: readonly LearnerFiles[]): string {
    return `${state.seed}|${toAssignments(this.sim.params, state.params).join('&')}|${learner.length ? codeKey(learner) : ''}`;
  }

  #changed(): void {
    const state = this.#readForm();
    if (!state) return;
    const learner = this.#selectedLearner();
    const key = this.#key(state, learner);
    this.#updateCli(state);
    if (key === this.#lastKey) return;
    this.#lastKey = key;
    this.#changedAt = performance.now();
    const cached = this.#cache.get(key);
    if (cached) {
      this.#latest.supersede();
      this.#render(cached, true);
      return;
    }
    const action = this.#latest.submit(
      {
        type: 'run',
        id: 0,
        sim: this.sim.name,
        params: state.params,
        seed: state.seed,
        maxPoints: MAX_POINTS,
        tableRows: TABLE_ROWS,
        ...(learner.length ? { learner } : {}),
      },
      performance.now(),
    );
    if (action.restart) {
      this.#worker?.terminate();
      this.#worker = null;
    }
    if (action.send) this.#send(action.send.id, action.send.payload);
    this.el.dataset.state = 'running';
  }

  #send(id: number, payload: RunRequest): void {
    if (!this.#worker) {
      this.#worker = new Worker(new URL('./sim-worker.ts', import.meta.url), { type: 'module', name: `lab-${this.sim.name}` });
      this.#worker.addEventListener('message', (e: MessageEvent<RunResponse>) => this.#onResponse(e.data));
      this.#worker.addEventListener('error', (e) => {
        e.preventDefault();
        this.#latest.reset();
        this.#worker?.terminate();
        this.#worker = null;
        this.#setFormError(this.#t('failed', { error: e.message || 'worker' }));
        this.el.dataset.state = 'error';
      });
    }
    this.#worker.postMessage({ ...payload, id });
    clearTimeout(this.#learnerTimer);
    const learner = payload.learner;
    if (learner) this.#learnerTimer = setTimeout(() => this.#stopLearner(learner), LEARNER_LIMIT_MS);
  }

  #onResponse(res: RunResponse): void {
    clearTimeout(this.#learnerTimer);
    const action = this.#latest.receive(res.id, performance.now());
    if (action.send) this.#send(action.send.id, action.send.payload);
    if (!action.accept) return; // an answer to a question nobody is asking any more
    if (res.type === 'error') {
      this.#setFormError(this.#t('failed', { error: res.errors.map((e) => this.#error(e)).join(' ') }));
      this.el.dataset.state = 'error';
      return;
    }
    this.#cache.set(this.#lastKey, res.view);
    if (this.#cache.size > CACHE_SIZE) this.#cache.delete(this.#cache.keys().next().value!);
    this.el.querySelector<HTMLElement>('[data-timing]')!.textContent = this.#t('computed', { ms: Math.max(1, Math.round(res.computeMs)) });
    this.#render(res.view, false, res.computeMs);
  }

  // ---- drawing ----

  #render(view: LabView, fromCache: boolean, computeMs: number | null = null): void {
    this.#view = view;
    const words = { ...this.strings.words, names: namesOf(view) };
    const focus = this.#focus && this.focusSpec ? { key: this.focusSpec.key, value: this.#focus } : null;
    this.#renderFigures(view, focus);
    this.#renderYours(view);
    this.el.querySelector('[data-results-table]')!.innerHTML = resultsTableHtml(
      view,
      this.lang,
      words,
      String(this.el.querySelector('[data-results-table] caption')?.textContent ?? ''),
      focus,
    );
    const theme = this.#plots.size ? null : readTheme(this.el);
    for (const chart of view.charts) {
      const fig = this.el.querySelector<HTMLElement>(`[data-chart="${chart.id}"]`);
      if (!fig) continue;
      if (chart.kind === 'gantt') {
        this.#drawGantt(fig, chart);
        fig.querySelector('[data-chart-table]')!.innerHTML = ganttTableHtml(chart, this.lang, words);
        continue;
      }
      fig.querySelector('[data-legend]')!.innerHTML = legendHtml(chart, this.lang, this.#focus);
      fig.querySelector('[data-chart-table]')!.innerHTML = chartTableHtml(chart, this.lang, words);
      const plot = this.#plots.get(chart.id);
      if (plot) plot.update(chart, this.#focus);
      else
        this.#plots.set(
          chart.id,
          new LabPlot(fig.querySelector<HTMLElement>('[data-plot]')!, chart as PreparedXY, this.lang, theme ?? readTheme(this.el), this.#focus),
        );
    }
    const changedAt = this.#changedAt;
    const key = this.#lastKey;
    requestAnimationFrame(() => {
      // "ready" only if nothing newer was asked for meanwhile: tests and the benchmark wait on it.
      if (key === this.#lastKey && !this.#latest.busy) this.el.dataset.state = 'ready';
      this.el.dataset.renders = String(Number(this.el.dataset.renders ?? 0) + 1);
      const detail: LabRenderedDetail = { sim: this.sim.name, ms: performance.now() - changedAt, fromCache, computeMs };
      this.el.dispatchEvent(new CustomEvent('course:lab-rendered', { detail, bubbles: true }));
    });
  }

  /** Update the figures in place, so a screen reader announces only the values that changed. */
  #renderFigures(view: LabView, focus: { key: string; value: string } | null): void {
    const box = this.el.querySelector<HTMLElement>('[data-figures]')!;
    const items = keyFigures(view, focus);
    const current = [...box.querySelectorAll<HTMLElement>('[data-figure]')].map((f) => f.dataset.figure);
    if (current.length !== items.length || items.some((it, i) => it.key !== current[i])) {
      box.innerHTML = figuresHtml(items, this.lang, { ...this.strings.words, names: namesOf(view) });
      return;
    }
    const tmp = document.createElement('dl');
    tmp.innerHTML = figuresHtml(items, this.lang, { ...this.strings.words, names: namesOf(view) });
    const fresh = tmp.querySelectorAll('dd');
    box.querySelectorAll('dd').forEach((dd, i) => {
      const text = fresh[i]!.textContent ?? '';
      if (dd.textContent !== text) dd.textContent = text;
    });
  }

  #drawGantt(fig: HTMLElement, chart: GanttChart): void {
    const wrap = fig.querySelector<HTMLElement>('[data-gantt]')!;
    wrap.innerHTML = ganttSvg(chart, {
      width: Math.max(320, wrap.clientWidth || 640),
      lang: this.lang,
      outcomeLabels: this.strings.words.outcomes,
      legendLabel: this.strings.words.outcome,
    });
  }

  #resize(): void {
    for (const p of this.#plots.values()) p.resize();
    if (this.#view)
      for (const chart of this.#view.charts) {
        if (chart.kind !== 'gantt') continue;
        const fig = this.el.querySelector<HTMLElement>(`[data-chart="${chart.id}"]`);
        if (fig) this.#drawGantt(fig, chart);
      }
  }

  #updateCli(state: LabState): void {
    this.el.querySelector('[data-cli]')!.textContent = cliCommand(this.sim.name, state.seed, toAssignments(this.sim.params, state.params));
  }

  // ---- buttons ----

  reset(): void {
    this.#writeForm(defaultState(this.sim));
    this.#setFormError('');
    this.#setStatus(this.#t('resetDone'));
    this.#changed();
    if (this.#view) this.#render(this.#view, true); // the focus was cleared even if the parameters were already the defaults
  }

  async copyLink(): Promise<void> {
    const state = this.#readForm();
    if (!state) return;
    const url = `${location.origin}${location.pathname}${stateToHash(this.sim, state, this.focusSpec)}`;
    const row = this.el.querySelector<HTMLElement>('[data-link-row]')!;
    const field = this.el.querySelector<HTMLInputElement>('[data-link]')!;
    field.value = url;
    row.hidden = false;
    try {
      await navigator.clipboard.writeText(url);
      this.#setStatus(this.#t('copied'));
    } catch {
      field.focus();
      field.select();
      this.#setStatus(this.#t('copyFailed'));
    }
  }
}

export function startLab(el: HTMLElement): { destroy(): void } {
  const controller = new LabController(el);
  controller.start();
  return controller;
}
