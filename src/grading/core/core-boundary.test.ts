// The core is what the browser imports: it must not reach Node (node: modules, or the node/ back-end
// that uses them), or a page bundle would break or silently grow.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';

const CORE = import.meta.dirname;
const shipped = readdirSync(CORE).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'));

test('the grading core imports no node: module and nothing from the Node back-end or the test fakes', () => {
  expect(shipped.length, 'files found in core/').toBeGreaterThan(8);
  const offending = shipped.flatMap((file) =>
    [...readFileSync(join(CORE, file), 'utf8').matchAll(/(?:from|import)\s*\(?\s*['"]([^'"]+)['"]/g)]
      .map((m) => m[1]!)
      .filter((spec) => spec.startsWith('node:') || /^(?:\.\.\/)+(?:node|testing)\//.test(spec) || /^(fs|path|child_process|os|crypto|module)$/.test(spec))
      .map((spec) => `${file} imports ${spec}`),
  );
  expect(offending).toEqual([]);
});
