/**
 * The type check behind grading in Node, kept warm between runs: it parses and checks the learner's
 * files with the TypeScript language service, in the grader's process, and never runs them.
 */
import { readFileSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import ts from 'typescript';
import type { TypeChecker } from '../core/index.ts';

export type { TypeChecker };

/**
 * The type check kept warm: a TypeScript language service per sandbox root that re-reads only the
 * learner's files on each check, so a re-grade reuses the parsed @types/node and lib files
 * (a fresh `tsc` spends about a second and a half on those). It only parses and checks learner
 * code, never runs it, so it is safe in the grader's own process.
 */
export function warmTypeChecker(): TypeChecker {
  const services = new Map<string, RootService>();
  // Shared by every root: lib and @types/node (reached through each sandbox's node_modules link,
  // resolved to the same real path) are parsed once, not once per exercise.
  const registry = ts.createDocumentRegistry();
  return {
    async check(root, nodeModules) {
      let service = services.get(root);
      if (!service) services.set(root, (service = new RootService(root, registry, nodeModules)));
      return service.check();
    },
    forget(root) {
      services.delete(root);
    },
  };
}

class RootService {
  private readonly config: unknown;
  private parsed: ts.ParsedCommandLine;
  private readonly texts = new Map<string, { text: string; version: number }>();
  private readonly service: ts.LanguageService;
  private readonly learnerDir: string;

  /** A path as the sandbox's runs see it, read on this machine: `<root>/node_modules/…` in `nodeModules`. */
  private readonly onHost: (path: string) => string;

  constructor(
    private readonly root: string,
    registry: ts.DocumentRegistry,
    nodeModules?: string,
  ) {
    this.learnerDir = resolve(root, 'src') + sep;
    // A confined sandbox's node_modules is empty from out here (bubblewrap's mount points), so its
    // packages are read where they are: without this, @types/node is missing and every Node global
    // (setTimeout, AbortSignal, Response…) is a phantom TS2304 in the learner's file.
    const modulesDir = resolve(root, 'node_modules');
    this.onHost = nodeModules
      ? (path) => {
          const full = resolve(root, path);
          return full === modulesDir || full.startsWith(modulesDir + sep) ? nodeModules + full.slice(modulesDir.length) : path;
        }
      : (path) => path;
    const fileExists = (path: string) => ts.sys.fileExists(this.onHost(path));
    const readFile = (path: string, encoding?: string) => ts.sys.readFile(this.onHost(path), encoding);
    const directoryExists = (path: string) => ts.sys.directoryExists(this.onHost(path));
    const getDirectories = (path: string) => ts.sys.getDirectories(this.onHost(path));
    const realpath = (path: string) => ts.sys.realpath!(this.onHost(path));
    this.config = ts.readConfigFile(join(root, 'tsconfig.json'), ts.sys.readFile).config ?? {};
    this.parsed = ts.parseJsonConfigFileContent(this.config, ts.sys, root);
    const host: ts.LanguageServiceHost = {
      getScriptFileNames: () => this.parsed.fileNames,
      getScriptVersion: (file) => String(this.entry(file)?.version ?? 0),
      getScriptSnapshot: (file) => {
        const entry = this.entry(file);
        return entry ? ts.ScriptSnapshot.fromString(entry.text) : undefined;
      },
      getCurrentDirectory: () => root,
      getCompilationSettings: () => this.parsed.options,
      getDefaultLibFileName: (options) => ts.getDefaultLibFilePath(options),
      fileExists,
      readFile,
      readDirectory: (path, extensions, exclude, include, depth) => ts.sys.readDirectory(this.onHost(path), extensions, exclude, include, depth),
      directoryExists,
      getDirectories,
      realpath,
    };
    this.service = ts.createLanguageService(host, registry);
  }

  /** Learner files are re-read at every check (their version bumps when the text changes); the rest once. */
  private entry(file: string) {
    const full = resolve(this.root, file);
    const cached = this.texts.get(full);
    if (cached && !full.startsWith(this.learnerDir)) return cached;
    let text: string;
    try {
      text = readFileSync(this.onHost(full), 'utf8');
    } catch {
      return undefined;
    }
    if (cached?.text === text) return cached;
    const entry = { text, version: (cached?.version ?? 0) + 1 };
    this.texts.set(full, entry);
    return entry;
  }

  async check(): Promise<string> {
    // The learner's files may have come or gone; the options object stays the same one, or the
    // language service would take it as a new configuration and rebuild the whole program.
    const fileNames = ts.parseJsonConfigFileContent(this.config, ts.sys, this.root).fileNames;
    if (fileNames.join('\n') !== this.parsed.fileNames.join('\n')) this.parsed = { ...this.parsed, fileNames };
    const files = this.parsed.fileNames;
    const diagnostics = [
      ...this.service.getCompilerOptionsDiagnostics(),
      ...files.flatMap((f) => [...this.service.getSyntacticDiagnostics(f), ...this.service.getSemanticDiagnostics(f)]),
    ];
    return ts.formatDiagnostics(diagnostics, {
      getCanonicalFileName: (f) => f,
      getCurrentDirectory: () => this.root,
      getNewLine: () => '\n',
    });
  }
}
