/**
 * http.ServerResponse for the page: writeHead() as Node's (the status line, headers given as an
 * object, a flat array or [name, value] pairs, merged with those set before, Node's refusals), the
 * default headers Node adds (Date, Connection, Keep-Alive, Content-Length or chunked), and the head
 * frame a server's connection sends. The server (server.ts) gives it its socket and closes it.
 */
import type { Runtime } from '../runtime.ts';
import { invalidArgValue, lines, nodeError, type StoredHeader, validateHeaderName, validateHeaderValue } from './headers.ts';
import type { IncomingMessage } from './incoming.ts';
import type { Frame, Socket } from './loopback.ts';
import { OutgoingMessage } from './outgoing.ts';
import { STATUS_CODES } from './status.ts';

const INVALID_STATUS_MESSAGE = /[^\t\x20-\x7e\x80-\xff]/;
const has = (raw: string[], name: string) => raw.some((h, i) => i % 2 === 0 && h.toLowerCase() === name);

export class ServerResponse extends OutgoingMessage {
  statusCode = 200;
  statusMessage: string | undefined = undefined;
  override sendDate = true;
  readonly req: IncomingMessage;
  /** Set by the server that made it: its keepAliveTimeout is announced in the Keep-Alive header. */
  _keepAliveTimeout = 5000;

  constructor(req: IncomingMessage, rt: Runtime) {
    super(rt);
    this.req = req;
    if (req.method === 'HEAD') this._hasBody = false;
  }

  override _implicitHeader(): void {
    this.writeHead(this.statusCode);
  }

  writeHead(
    statusCode: number,
    reason?: string | Record<string, StoredHeader[1]> | string[] | string[][],
    headers?: Record<string, StoredHeader[1]> | string[] | string[][],
  ): this {
    if (this._header) throw nodeError(Error, 'ERR_HTTP_HEADERS_SENT', 'Cannot write headers after they are sent to the client');
    const code = statusCode | 0;
    if (code < 100 || code > 999) throw nodeError(RangeError, 'ERR_HTTP_INVALID_STATUS_CODE', `Invalid status code: ${String(statusCode)}`);
    let extra = headers;
    if (typeof reason === 'string') this.statusMessage = reason;
    else {
      this.statusMessage ||= STATUS_CODES[code] ?? 'unknown';
      extra ??= reason;
    }
    this.statusCode = code;
    let raw: string[] | undefined;
    if (this.hasStoredHeaders()) {
      // As Node: headers given to writeHead after setHeader() must be an object or a flat array of
      // name, value pairs (removeHeader() then refuses a nested pair as a name).
      if (Array.isArray(extra)) {
        if (extra.length % 2 !== 0) throw invalidArgValue('headers', extra);
        for (let n = 0; n < extra.length; n += 2) this.removeHeader(extra[n] as string);
        for (let n = 0; n < extra.length; n += 2) if (extra[n]) this.appendHeader(extra[n] as string, extra[n + 1] as string);
      } else if (extra) {
        for (const [k, v] of Object.entries(extra)) if (k) this.setHeader(k, v);
      }
      raw = this.storedLines();
    }
    if (INVALID_STATUS_MESSAGE.test(this.statusMessage ?? '')) throw nodeError(TypeError, 'ERR_INVALID_CHAR', 'Invalid character in statusMessage');
    if (code === 204 || code === 304 || (code >= 100 && code <= 199)) this._hasBody = false;
    if (!raw) {
      raw = [];
      for (const [k, v] of Array.isArray(extra) ? pairsOf(extra) : Object.entries(extra ?? {})) {
        validateHeaderName(k);
        validateHeaderValue(k, v);
        raw.push(...lines(k, v));
      }
    }
    this._header = this.withDefaults(raw);
    return this;
  }

  /** Date, Connection, Keep-Alive and the body's framing, where the handler did not set them. */
  private withDefaults(raw: string[]): string[] {
    const out = [...raw];
    if (this.sendDate && !has(out, 'date')) out.push('Date', new Date().toUTCString());
    const connection = out.findIndex((h, i) => i % 2 === 0 && h.toLowerCase() === 'connection');
    if (connection >= 0) {
      if (/\bclose\b/i.test(out[connection + 1]!)) this.shouldKeepAlive = false;
    } else out.push('Connection', this.shouldKeepAlive ? 'keep-alive' : 'close');
    if (this.shouldKeepAlive && !has(out, 'keep-alive') && this._keepAliveTimeout > 0)
      out.push('Keep-Alive', `timeout=${Math.floor(this._keepAliveTimeout / 1000)}`);
    if (this._hasBody && !has(out, 'content-length') && !has(out, 'transfer-encoding')) {
      if (this._contentLength !== undefined) out.push('Content-Length', String(this._contentLength));
      else {
        this.chunkedEncoding = true;
        out.push('Transfer-Encoding', 'chunked');
      }
    }
    return out;
  }

  protected override headFrame(raw: string[]): Frame {
    return { type: 'head', status: this.statusCode, statusMessage: this.statusMessage ?? STATUS_CODES[this.statusCode] ?? 'unknown', raw };
  }

  writeContinue(): void {}
  writeProcessing(): void {}
  writeEarlyHints(): void {}

  assignSocket(socket: Socket): void {
    socket._httpMessage = this;
    this.socket = socket;
    this.emit('socket', socket);
    this.flushQueued();
  }
  detachSocket(socket: Socket): void {
    socket._httpMessage = null;
    this.socket = null;
  }
}

/** Node's _storeHeader: an array of [name, value] pairs, or a flat array of even length. */
function pairsOf(headers: string[] | string[][]): Array<[string, string]> {
  if (headers.length && Array.isArray(headers[0])) return (headers as string[][]).map(([k, v]) => [k!, v!]);
  const flat = headers as string[];
  if (flat.length % 2 !== 0) throw invalidArgValue('headers', flat);
  const out: Array<[string, string]> = [];
  for (let i = 0; i < flat.length; i += 2) out.push([flat[i]!, flat[i + 1]!]);
  return out;
}

/** Node's response 'close' (emitCloseNT). */
export function emitClose(res: ServerResponse): void {
  if (res._closed) return;
  res.destroyed = true;
  res._closed = true;
  res.emit('close');
}
