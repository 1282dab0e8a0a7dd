/**
 * http.OutgoingMessage for the page: what ServerResponse and ClientRequest share. Headers are kept
 * as Node keeps them (validated, the name's case and the value's type as given), frozen into the
 * message head by the first writeHead/write/end (`headersSent` from then on), and sent to the other
 * end with the first body write, end() or flushHeaders(), as Node sends its buffered head. 'finish'
 * comes one tick after the last part has been handed to the connection (Node: its write callback).
 */
import { Stream } from 'readable-stream';
import { Buffer } from 'buffer';
import { lines, nodeError, received, type StoredHeader, validateHeaderName, validateHeaderValue } from './headers.ts';
import type { Frame, Socket } from './loopback.ts';
import type { Runtime } from '../runtime.ts';

type Chunk = string | Uint8Array;
type Callback = (error?: Error | null) => void;

export function chunkBytes(chunk: Chunk, encoding?: string): Uint8Array {
  if (typeof chunk === 'string') return Buffer.from(chunk, (encoding ?? 'utf8') as BufferEncoding);
  return chunk;
}

function checkChunk(chunk: unknown): asserts chunk is Chunk {
  if (typeof chunk === 'string' || chunk instanceof Uint8Array) return;
  throw nodeError(
    TypeError,
    'ERR_INVALID_ARG_TYPE',
    `The "chunk" argument must be of type string or an instance of Buffer, TypedArray, or DataView. Received ${received(chunk)}`,
  );
}

export abstract class OutgoingMessage extends Stream {
  destroyed = false;
  errored: Error | null = null;
  writable = true;
  finished = false;
  /**
   * Set just before 'finish', as Node 24 sets it (its kWritableFinished): false right after end()
   * returns. (Node 20 computed it, finished && nothing left to write, so true there already.)
   */
  writableFinished = false;
  chunkedEncoding = false;
  useChunkedEncodingByDefault = true;
  sendDate = false;
  shouldKeepAlive = true;
  strictContentLength = false;
  socket: Socket | null = null;
  /** Set just before 'close' is emitted (Node's `_closed`, read as `closed`: see below the class). */
  _closed = false;
  declare readonly closed: boolean;
  /** The head's header lines once frozen (Node's `_header`); null before. */
  _header: string[] | null = null;
  _hasBody = true;
  /** The body's length when end() came with the whole body before the head was frozen. */
  _contentLength: number | undefined = undefined;
  protected readonly rt: Runtime;
  #headers = new Map<string, StoredHeader>();
  /** A header was ever set (Node's kOutHeaders exists from then on, even once emptied again). */
  #headersSet = false;
  #headSent = false;
  /** Parts written before the message has a connection to go to. */
  #queued: Frame[] = [];

  constructor(rt: Runtime) {
    super();
    this.rt = rt;
  }

  get headersSent(): boolean {
    return this._header !== null;
  }
  get writableEnded(): boolean {
    return this.finished;
  }
  get connection(): Socket | null {
    return this.socket;
  }

  get writableCorked(): number {
    return 0;
  }
  get writableLength(): number {
    return 0;
  }
  get writableHighWaterMark(): number {
    return 16384;
  }
  get writableObjectMode(): boolean {
    return false;
  }
  get writableNeedDrain(): boolean {
    return false;
  }

  setHeader(name: string, value: StoredHeader[1]): this {
    if (this._header) throw nodeError(Error, 'ERR_HTTP_HEADERS_SENT', 'Cannot set headers after they are sent to the client');
    validateHeaderName(name);
    validateHeaderValue(name, value);
    this.#headers.set(name.toLowerCase(), [name, value]);
    this.#headersSet = true;
    return this;
  }
  setHeaders(headers: Headers | Map<string, string>): this {
    for (const [k, v] of headers) this.setHeader(k, v);
    return this;
  }
  appendHeader(name: string, value: StoredHeader[1]): this {
    if (this._header) throw nodeError(Error, 'ERR_HTTP_HEADERS_SENT', 'Cannot append headers after they are sent to the client');
    validateHeaderName(name);
    validateHeaderValue(name, value);
    const had = this.#headers.get(name.toLowerCase());
    const add = Array.isArray(value) ? value.map(String) : [String(value)];
    const prev = had === undefined ? [] : Array.isArray(had[1]) ? had[1].map(String) : [String(had[1])];
    this.#headers.set(name.toLowerCase(), [had?.[0] ?? name, had === undefined && add.length === 1 ? value : [...prev, ...add]]);
    this.#headersSet = true;
    return this;
  }
  getHeader(name: string): StoredHeader[1] | undefined {
    if (typeof name !== 'string') throw nodeError(TypeError, 'ERR_INVALID_ARG_TYPE', `The "name" argument must be of type string. Received ${received(name)}`);
    return this.#headers.get(name.toLowerCase())?.[1];
  }
  getHeaders(): Record<string, StoredHeader[1]> {
    const out: Record<string, StoredHeader[1]> = Object.create(null);
    for (const [k, [, v]] of this.#headers) out[k] = v;
    return out;
  }
  getHeaderNames(): string[] {
    return [...this.#headers.keys()];
  }
  getRawHeaderNames(): string[] {
    return [...this.#headers.values()].map(([n]) => n);
  }
  hasHeader(name: string): boolean {
    return this.#headers.has(String(name).toLowerCase());
  }
  removeHeader(name: string): void {
    if (typeof name !== 'string') throw nodeError(TypeError, 'ERR_INVALID_ARG_TYPE', `The "name" argument must be of type string. Received ${received(name)}`);
    if (this._header) throw nodeError(Error, 'ERR_HTTP_HEADERS_SENT', 'Cannot remove headers after they are sent to the client');
    this.#headers.delete(name.toLowerCase());
  }
  /** The header lines setHeader() and friends built up. */
  protected storedLines(): string[] {
    return [...this.#headers.values()].flatMap(([n, v]) => lines(n, v));
  }
  protected hasStoredHeaders(): boolean {
    return this.#headersSet;
  }

  /** Freezes the head: writeHead() for a response, the request line for a request. */
  abstract _implicitHeader(): void;
  /** The head frame for the frozen header lines. */
  protected abstract headFrame(raw: string[]): Frame;

  flushHeaders(): void {
    if (!this._header) this._implicitHeader();
    this.sendHead();
  }

  protected sendHead(): void {
    if (this.#headSent || !this._header) return;
    this.#headSent = true;
    this.transmit(this.headFrame(this._header));
  }

  protected transmit(frame: Frame): void {
    if (this.socket && !this.socket.connecting) this.socket.send(frame);
    else this.#queued.push(frame);
  }

  /** A connection is ready: send what was written before it was. */
  protected flushQueued(): void {
    for (const f of this.#queued.splice(0)) this.socket?.send(f);
  }

  write(chunk: unknown, encoding?: string | Callback, cb?: Callback): boolean {
    if (typeof encoding === 'function') [cb, encoding] = [encoding, undefined];
    if (this.finished) {
      const err = nodeError(Error, 'ERR_STREAM_WRITE_AFTER_END', 'write after end');
      this.rt.nextTick(() => {
        cb?.(err);
        this.emit('error', err);
      });
      return false;
    }
    if (this.destroyed) {
      const err = nodeError(Error, 'ERR_STREAM_DESTROYED', 'Cannot call write after a stream was destroyed');
      this.rt.nextTick(() => cb?.(err));
      return false;
    }
    checkChunk(chunk);
    this.writeBody(chunk, encoding);
    if (cb) this.rt.nextTick(() => cb());
    return true;
  }

  protected writeBody(chunk: Chunk, encoding?: string): void {
    if (!this._header) this._implicitHeader();
    this.sendHead();
    const bytes = chunkBytes(chunk, encoding);
    if (!this._hasBody || bytes.byteLength === 0) return;
    this.transmit({ type: 'data', chunk: bytes });
  }

  end(chunk?: unknown, encodingOrCb?: string | Callback, cb?: Callback): this {
    let encoding = typeof encodingOrCb === 'string' ? encodingOrCb : undefined;
    if (typeof chunk === 'function') [cb, chunk] = [chunk as Callback, undefined];
    else if (typeof encodingOrCb === 'function') [cb, encoding] = [encodingOrCb, undefined];
    if (this.finished) {
      if (cb) {
        if (this.writableFinished) this.rt.nextTick(() => cb(nodeError(Error, 'ERR_STREAM_ALREADY_FINISHED', 'Cannot call end after a stream was finished')));
        else this.once('finish', cb);
      }
      return this;
    }
    if (chunk !== undefined && chunk !== null) {
      checkChunk(chunk);
      if (!this._header) this._contentLength = chunkBytes(chunk, encoding).byteLength;
      this.writeBody(chunk, encoding);
    } else if (!this._header) {
      this._contentLength = 0;
    }
    if (!this._header) this._implicitHeader();
    if (cb) this.once('finish', cb);
    this.finished = true;
    if (this.destroyed) return this;
    this.sendHead();
    this.transmit({ type: 'end' });
    this.finishWhenSent();
    return this;
  }

  /** 'prefinish' and 'finish' once the last part has left (a request waits for its connection). */
  protected finishWhenSent(): void {
    this.rt.nextTick(() => {
      if (this.destroyed) return;
      this.emit('prefinish');
      this.writableFinished = true;
      this.emit('finish');
    });
  }

  destroy(error?: Error): this {
    if (this.destroyed) return this;
    this.destroyed = true;
    this.errored = error ?? null;
    if (this.socket) this.socket.destroy(error);
    else this.once('socket', (s: Socket) => s.destroy(error));
    return this;
  }

  cork(): void {}
  uncork(): void {}
  addTrailers(): void {}
  /**
   * Node's: only the socket's idle timeout is set; who hears of it is the socket owner's business
   * (a server's socketOnTimeout, or a ClientRequest's own listener).
   */
  setTimeout(ms: number, cb?: () => void): this {
    if (cb) this.on('timeout', cb);
    if (this.socket) this.socket.setTimeout(ms);
    else this.once('socket', (s: Socket) => s.setTimeout(ms));
    return this;
  }
}

// Node's `closed` is a getter of `_closed` (readable-stream's types have it as a plain property).
Object.defineProperty(OutgoingMessage.prototype, 'closed', {
  get(this: OutgoingMessage) {
    return this._closed;
  },
  configurable: true,
});
