/** Messages between the editor and the TypeScript worker. Positions are offsets in the file. */
export type TsRequest =
  | { type: 'init'; files: Record<string, string> }
  | { type: 'update'; path: string; text: string }
  | { type: 'diagnostics'; path: string }
  | { type: 'hover'; path: string; pos: number }
  | { type: 'complete'; path: string; pos: number };

export interface TsDiagnostic {
  from: number;
  to: number;
  message: string;
  severity: 'error' | 'warning' | 'info';
}

export interface TsCompletion {
  label: string;
  type: string;
}

export type TsResponse = { id: number; result: unknown } | { id: number; error: string };

/** The learner's files live under src/, as in the grading sandbox (the env's tsconfig includes src/). */
export const sourcePath = (file: string) => `/src/${file}`;
