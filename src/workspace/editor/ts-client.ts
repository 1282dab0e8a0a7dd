/** The editor's side of the TypeScript worker: requests answered in order, as promises. */
import type { TsCompletion, TsDiagnostic, TsRequest, TsResponse } from './ts-protocol.ts';

export class TsClient {
  private readonly worker: Worker;
  private nextId = 0;
  private readonly waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();

  constructor(files: Record<string, string>) {
    this.worker = new Worker(new URL('./ts-worker.ts', import.meta.url), { type: 'module' });
    this.worker.onmessage = (event: MessageEvent<TsResponse>) => {
      const waiter = this.waiting.get(event.data.id);
      this.waiting.delete(event.data.id);
      if ('error' in event.data) waiter?.reject(new Error(event.data.error));
      else waiter?.resolve(event.data.result);
    };
    void this.send({ type: 'init', files });
  }

  private send<T>(req: TsRequest): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      this.waiting.set(id, { resolve: resolve as (v: unknown) => void, reject });
      this.worker.postMessage({ id, req });
    });
  }

  update(path: string, text: string) {
    return this.send<void>({ type: 'update', path, text });
  }
  diagnostics(path: string) {
    return this.send<TsDiagnostic[]>({ type: 'diagnostics', path });
  }
  hover(path: string, pos: number) {
    return this.send<string | null>({ type: 'hover', path, pos });
  }
  complete(path: string, pos: number) {
    return this.send<TsCompletion[]>({ type: 'complete', path, pos });
  }
}
