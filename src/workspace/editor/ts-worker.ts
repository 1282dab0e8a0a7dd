/**
 * The TypeScript language service for the editor, off the main thread: type errors, hover types and
 * completions for the exercise's files, with the same compiler options and types as the grading env.
 */
import ts from 'typescript';
import { createSystem, createVirtualTypeScriptEnvironment, type VirtualTypeScriptEnvironment } from '@typescript/vfs';
import { sourcePath, type TsCompletion, type TsDiagnostic, type TsRequest } from './ts-protocol.ts';

const raw = (glob: Record<string, unknown>) => glob as Record<string, string>;
// Bundled into this worker: the ES2023 lib chain, and @types/node + undici-types from the exercise env.
const libs = raw(
  import.meta.glob('/node_modules/typescript/lib/lib.{es5,es20{15,16,17,18,19,20,21,22,23}*,decorators*}.d.ts', {
    eager: true,
    query: '?raw',
    import: 'default',
  }),
);
const nodeTypes = raw(
  import.meta.glob(['/exercises/_env/node_modules/@types/node/**/*.d.ts', '/exercises/_env/node_modules/@types/node/package.json', '!**/ts5.6/**'], {
    eager: true,
    query: '?raw',
    import: 'default',
  }),
);
const undiciTypes = raw(
  import.meta.glob(['/exercises/_env/node_modules/undici-types/*.d.ts', '/exercises/_env/node_modules/undici-types/package.json'], {
    eager: true,
    query: '?raw',
    import: 'default',
  }),
);

// The exercise env's tsconfig.json (exercises/_env/tsconfig.json).
const options: ts.CompilerOptions = {
  strict: true,
  noEmit: true,
  target: ts.ScriptTarget.ES2022,
  lib: ['lib.es2023.d.ts'],
  module: ts.ModuleKind.ESNext,
  moduleResolution: ts.ModuleResolutionKind.Bundler,
  allowImportingTsExtensions: true,
  isolatedModules: true,
  skipLibCheck: true,
  types: ['node'],
};

let env: VirtualTypeScriptEnvironment | undefined;

function init(files: Record<string, string>) {
  const map = new Map<string, string>();
  for (const [p, text] of Object.entries(libs)) map.set(`/${p.split('/').pop()}`, text);
  for (const [p, text] of Object.entries({ ...nodeTypes, ...undiciTypes })) map.set(p.replace('/exercises/_env', ''), text);
  const roots: string[] = [];
  for (const [file, text] of Object.entries(files)) {
    map.set(sourcePath(file), text || ' ');
    roots.push(sourcePath(file));
  }
  env = createVirtualTypeScriptEnvironment(createSystem(map), roots, ts, options);
}

function diagnostics(path: string): TsDiagnostic[] {
  const service = env!.languageService;
  const all = [...service.getSyntacticDiagnostics(path), ...service.getSemanticDiagnostics(path)];
  return all.map((d) => ({
    from: d.start ?? 0,
    to: (d.start ?? 0) + (d.length ?? 0),
    message: ts.flattenDiagnosticMessageText(d.messageText, '\n'),
    severity: d.category === ts.DiagnosticCategory.Error ? 'error' : d.category === ts.DiagnosticCategory.Warning ? 'warning' : 'info',
  }));
}

function hover(path: string, pos: number): string | null {
  const info = env!.languageService.getQuickInfoAtPosition(path, pos);
  if (!info) return null;
  const doc = ts.displayPartsToString(info.documentation);
  return ts.displayPartsToString(info.displayParts) + (doc ? `\n\n${doc}` : '');
}

function complete(path: string, pos: number): TsCompletion[] {
  const result = env!.languageService.getCompletionsAtPosition(path, pos, {});
  return (result?.entries ?? []).slice(0, 200).map((e) => ({ label: e.name, type: e.kind }));
}

function handle(req: TsRequest): unknown {
  if (req.type === 'init') return init(req.files);
  if (!env) throw new Error('not initialised');
  const path = sourcePath(req.path);
  switch (req.type) {
    case 'update':
      return env.updateFile(path, req.text || ' ');
    case 'diagnostics':
      return diagnostics(path);
    case 'hover':
      return hover(path, req.pos);
    case 'complete':
      return complete(path, req.pos);
  }
}

self.onmessage = (event: MessageEvent<{ id: number; req: TsRequest }>) => {
  const { id, req } = event.data;
  try {
    self.postMessage({ id, result: handle(req) ?? null });
  } catch (err) {
    self.postMessage({ id, error: err instanceof Error ? err.message : String(err) });
  }
};
