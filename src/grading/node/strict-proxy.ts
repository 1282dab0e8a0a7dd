/**
 * Strict grading replaces each learner file in the tests' sandbox with a generated module of the
 * same path that forwards to the learner's process, so the hidden test files run unchanged: their
 * `../src/<file>` import finds this module. Pure.
 */

const IDENT = /^[A-Za-z_$][\w$]*$/;

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Names the tests import from `../src/<file>` and the names the starter exports (a module's stable surface). */
export function exportNames(file: string, tests: Record<string, string>, starter: string): string[] {
  const names = new Set<string>();
  const from = new RegExp(`import\\s*(type\\s+)?\\{([^}]*)\\}\\s*from\\s*['"](?:\\.\\./)+src/${escapeRegExp(file)}['"]`, 'g');
  for (const text of Object.values(tests)) {
    for (const m of text.matchAll(from)) {
      if (m[1]) continue; // import type { … }: nothing at run time
      for (const part of m[2]!.split(',')) {
        const spec = part.trim();
        if (!spec || spec.startsWith('type ')) continue;
        const name = spec.split(/\s+as\s+/)[0]!.trim();
        if (IDENT.test(name)) names.add(name);
      }
    }
  }
  for (const m of starter.matchAll(/^export\s+(?:declare\s+)?(?:default\s+)?(?:async\s+)?(?:function\*?|class|const|let|var|enum)\s+([A-Za-z_$][\w$]*)/gm)) {
    names.add(m[1]!);
  }
  return [...names].sort();
}

/** The stand-in module for a learner file: one export per name, each the learner's value. */
export function strictProxySource(file: string, names: string[], clientPath: string): string {
  const lines = [
    "// Generated for strict grading: the learner's code runs in another process; see exercises/_env/strict/.",
    `import { learnerModule } from ${JSON.stringify(clientPath)};`,
    "// Calls the learner's code makes into the tests run through here, so their stack names this file.",
    'function __learnerCall(fn, self, args) {',
    '  return Reflect.apply(fn, self, args);',
    '}',
    `const __m = await learnerModule(${JSON.stringify(file)}, __learnerCall);`,
  ];
  for (const name of names) if (IDENT.test(name) && name !== 'default') lines.push(`export const ${name} = __m[${JSON.stringify(name)}];`);
  return `${lines.join('\n')}\n`;
}
