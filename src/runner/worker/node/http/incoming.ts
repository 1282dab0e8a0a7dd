/**
 * http.IncomingMessage for the page: a request as a server sees it, or a response as a client sees
 * it. A real Readable (readable-stream, Node's own stream code), filled with the body as it arrives,
 * so 'data', 'end' and 'close' come when they come in Node: 'end' only once someone reads the body,
 * 'close' after 'end' (or when the connection goes first). When the connection goes before the
 * message was read to its end, Node marks it aborted, emits 'aborted', and emits the ECONNRESET
 * error only to code that listens for errors; so does this.
 */
import { Readable } from 'readable-stream';
import { Buffer } from 'buffer';
import { distinctHeaders, joinHeaders } from './headers.ts';
import type { Socket } from './loopback.ts';
import type { Runtime } from '../runtime.ts';

export class IncomingMessage extends Readable {
  httpVersion = '1.1';
  httpVersionMajor = 1;
  httpVersionMinor = 1;
  method: string | undefined = undefined;
  url = '';
  statusCode: number | undefined = undefined;
  statusMessage: string | undefined = undefined;
  rawHeaders: string[] = [];
  rawTrailers: string[] = [];
  trailers: Record<string, string> = {};
  complete = false;
  aborted = false;
  upgrade = false;
  socket: Socket | null;
  /** True once the body was asked for (Node's `_consuming`): a finished response then does not dump it. */
  _consuming = false;
  _dumped = false;
  #headers: Record<string, string | string[]> | undefined;
  #rt: Runtime;

  constructor(socket: Socket | null, rt?: Runtime) {
    super();
    // As Node's constructor: the body is pushed as it arrives, so the stream must not call _read()
    // by itself (readable-stream's maybeReadMore would, and the body would count as being read).
    (this as unknown as { _readableState: { readingMore: boolean } })._readableState.readingMore = true;
    this.socket = socket;
    // Made by a learner's code (new http.IncomingMessage(socket)) it still needs a runtime for its ticks.
    this.#rt = rt ?? ({ nextTick: (fn: (...a: unknown[]) => void, ...a: unknown[]) => queueMicrotask(() => fn(...a)) } as unknown as Runtime);
  }

  get connection(): Socket | null {
    return this.socket;
  }
  get headers(): Record<string, string | string[]> {
    this.#headers ??= joinHeaders(this.rawHeaders);
    return this.#headers;
  }
  set headers(value: Record<string, string | string[]>) {
    this.#headers = value;
  }
  get headersDistinct(): Record<string, string[]> {
    return distinctHeaders(this.rawHeaders);
  }
  get trailersDistinct(): Record<string, string[]> {
    return distinctHeaders(this.rawTrailers);
  }

  override _read(): void {
    if (!this._consuming) {
      (this as unknown as { _readableState: { readingMore: boolean } })._readableState.readingMore = false;
      this._consuming = true;
    }
  }

  /** What the receiving side of a connection feeds in. */
  _pushBody(chunk: Uint8Array): void {
    this.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength));
  }
  _complete(): void {
    this.complete = true;
    this.push(null);
  }

  /** Node's `_dump()`: nobody read the body, so drain it (and let 'end' and 'close' come). */
  _dump(): void {
    if (this._dumped) return;
    this._dumped = true;
    this.removeAllListeners('data');
    this.resume();
  }

  setTimeout(ms: number, cb?: () => void): this {
    if (cb) this.on('timeout', cb);
    // Node's: the socket's owner tells this message (a server only while the request is arriving).
    this.socket?.setTimeout(ms);
    return this;
  }

  override _destroy(error: Error | null, cb: (error?: Error | null) => void): void {
    if (!this.readableEnded || !this.complete) {
      this.aborted = true;
      this.emit('aborted');
    }
    if (this.socket && !this.socket.destroyed && this.aborted) this.socket.destroy();
    // Node emits the error only where someone listens for it (kept for old code that never did).
    this.#rt.nextTick(() => cb(this.listenerCount('error') === 0 ? null : error));
  }
}
