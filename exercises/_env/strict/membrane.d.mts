export const LIMIT_ERROR: string;
export class ProtocolViolation extends Error {}
export interface MembraneOptions {
  send(msg: object): void;
  waitUntil(done: () => boolean): void;
  guard: boolean;
  invoke?: (fn: (...a: unknown[]) => unknown, self: unknown, args: unknown[]) => unknown;
  onViolation?: (why: string) => void;
  onLoad?: (file: string) => unknown;
  globals?: Record<string, () => [(...a: unknown[]) => unknown, unknown]>;
  onUnhandled?: (reason: unknown) => void;
}
export interface Membrane {
  receive(msg: Record<string, unknown>): void;
  request(msg: Record<string, unknown>, args?: unknown[]): unknown;
  notify(name: string): void;
  unhandled(reason: unknown): void;
  isMirror(value: unknown): boolean;
  encode(v: unknown): unknown;
  decode(x: unknown): unknown;
  shutdown(why: string): void;
  dial(host: string, port: number): import('node:stream').Duplex;
  readonly closed: string | undefined;
}
export function createMembrane(o: MembraneOptions): Membrane;
