/**
 * CodeMirror 6 for the exercise files (loaded on first use): TypeScript highlighting, bracket
 * matching, search, and type errors, hover types and completions from the TypeScript worker.
 * Read-only visible files stay focusable and searchable but cannot change.
 */
import { autocompletion, closeBrackets, closeBracketsKeymap, completionKeymap, type CompletionContext } from '@codemirror/autocomplete';
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { javascript } from '@codemirror/lang-javascript';
import { bracketMatching, foldGutter, indentOnInput, syntaxHighlighting } from '@codemirror/language';
import { linter, lintGutter, lintKeymap } from '@codemirror/lint';
import { highlightSelectionMatches, searchKeymap } from '@codemirror/search';
import { Compartment, EditorState } from '@codemirror/state';
import { drawSelection, EditorView, highlightActiveLine, highlightActiveLineGutter, hoverTooltip, keymap, lineNumbers } from '@codemirror/view';
import { classHighlighter } from '@lezer/highlight';
import type { FilesModel } from '../files-model.ts';
import type { CodeView } from '../workspace-element.ts';
import { TsClient } from './ts-client.ts';

export interface MountOptions {
  root: HTMLElement;
  exerciseId: string;
  model: FilesModel;
  onChange: (path: string, text: string) => void;
  label: (file: string) => string;
  /** Soft-wrap long lines (the learner's choice, see wrap-preference.ts). */
  wrap: boolean;
}

function tsExtensions(ts: TsClient, path: string) {
  return [
    linter(async () => (await ts.diagnostics(path)).map((d) => ({ ...d, source: 'TypeScript' })), { delay: 400 }),
    lintGutter(),
    hoverTooltip(async (_view, pos) => {
      const text = await ts.hover(path, pos);
      if (!text) return null;
      return {
        pos,
        create() {
          const dom = document.createElement('pre');
          dom.textContent = text;
          return { dom };
        },
      };
    }),
    autocompletion({
      override: [
        async (ctx: CompletionContext) => {
          const word = ctx.matchBefore(/[\w$]*/);
          if (!word || (word.from === word.to && !ctx.explicit && ctx.state.sliceDoc(word.from - 1, word.from) !== '.')) return null;
          const options = await ts.complete(path, ctx.pos);
          return { from: word.from, options, validFor: /^[\w$]*$/ };
        },
      ],
    }),
  ];
}

export async function mountEditors(opts: MountOptions): Promise<CodeView> {
  const panels = [...opts.root.querySelectorAll<HTMLElement>('[data-panel]')];
  const files = Object.fromEntries(panels.map((p) => [p.dataset.panel!, opts.model.get(p.dataset.panel!)]));
  const ts = new TsClient(files);
  const views = new Map<string, EditorView>();
  const wrapping = new Compartment();
  const wrapExtension = (on: boolean) => (on ? EditorView.lineWrapping : []);
  for (const panel of panels) {
    const path = panel.dataset.panel!;
    const editable = panel.dataset.editable === 'true';
    const area = panel.querySelector('textarea')!;
    const view = new EditorView({
      parent: panel,
      state: EditorState.create({
        doc: opts.model.get(path),
        extensions: [
          lineNumbers(),
          wrapping.of(wrapExtension(opts.wrap)),
          highlightActiveLineGutter(),
          foldGutter(),
          history(),
          drawSelection(),
          indentOnInput(),
          bracketMatching(),
          closeBrackets(),
          highlightActiveLine(),
          highlightSelectionMatches(),
          syntaxHighlighting(classHighlighter),
          javascript({ typescript: true }),
          keymap.of([...closeBracketsKeymap, ...defaultKeymap, ...searchKeymap, ...historyKeymap, ...completionKeymap, ...lintKeymap]),
          EditorState.readOnly.of(!editable),
          EditorView.contentAttributes.of({ 'aria-label': opts.label(path), ...(editable ? {} : { 'aria-readonly': 'true' }) }),
          EditorView.updateListener.of((u) => {
            if (!u.docChanged) return;
            const text = u.state.doc.toString();
            void ts.update(path, text);
            opts.onChange(path, text);
          }),
          ...tsExtensions(ts, path),
        ],
      }),
    });
    area.remove(); // the editor replaces the plain text area (its text is the model's)
    views.set(path, view);
  }
  return {
    set(path, text) {
      const view = views.get(path);
      if (view && view.state.doc.toString() !== text) view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
    },
    wrap(on) {
      for (const view of views.values()) view.dispatch({ effects: wrapping.reconfigure(wrapExtension(on)) });
    },
    focus(path, offset) {
      const view = views.get(path ?? '') ?? views.values().next().value;
      if (!view) return;
      if (offset !== undefined) view.dispatch({ selection: { anchor: Math.min(offset, view.state.doc.length) }, scrollIntoView: true });
      view.focus();
    },
  };
}
