// The JSON lines written by exercises/_env/grader-reporter.mjs (main process) and
// exercises/_env/grader-setup.mjs (inside the test worker). Parsing is tolerant: a run killed
// mid-write leaves a partial last line, which is skipped.

export interface SerializedError {
  name?: string;
  message: string;
  stack?: string;
  diff?: string;
}

export interface CollectedTest {
  id: string;
  name: string;
  ancestors: string[];
}

export type ReporterEvent =
  | { type: 'collected'; file: string; tests: CollectedTest[] }
  | { type: 'start'; id: string }
  | { type: 'result'; id: string; state: 'passed' | 'failed' | 'skipped' | 'pending'; duration: number; errors: SerializedError[] }
  | { type: 'log'; taskId?: string; stream: 'stdout' | 'stderr'; content: string }
  | { type: 'module-end'; file: string; state: string; errors: SerializedError[] }
  | { type: 'end'; reason: string; unhandled: SerializedError[] };

export type ProgressEvent = { type: 'start'; id: string; name: string } | { type: 'end'; id: string; state?: string; errors: string[] };

export function parseJsonLines<T extends { type: string }>(text: string | undefined): T[] {
  const out: T[] = [];
  for (const line of (text ?? '').split('\n')) {
    if (!line.trim()) continue;
    try {
      const value = JSON.parse(line) as unknown;
      if (value && typeof value === 'object' && typeof (value as { type?: unknown }).type === 'string') out.push(value as T);
    } catch {
      // a partial line from a killed run
    }
  }
  return out;
}

/** The tests that started and never ended, in the order they started. */
export function openTests(progress: ProgressEvent[]): Array<{ id: string; name: string }> {
  const open = new Map<string, string>();
  for (const e of progress) {
    if (e.type === 'start') {
      open.delete(e.id);
      open.set(e.id, e.name);
    } else open.delete(e.id);
  }
  return [...open].map(([id, name]) => ({ id, name }));
}

/** The test that started last and never ended, from the worker's progress lines. */
export function hungTest(progress: ProgressEvent[]): { id: string; name: string } | undefined {
  return openTests(progress).at(-1);
}
