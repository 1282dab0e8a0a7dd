/**
 * Header rules of Node's HTTP/1.1 stack, for the page's loopback: which names and values an outgoing
 * message refuses (the same errors, codes and messages as Node), and how a receiver turns the raw
 * header lines into `headers` (names lower-cased, values trimmed, a repeated header joined with
 * ", ", except the few Node keeps only once and `set-cookie`, kept as an array). Pure.
 */

export { nodeError, received } from '../node-errors.ts';
import { nodeError } from '../node-errors.ts';

/** util.inspect's one-line form, for the values header arguments hold (strings, numbers, arrays, plain objects). */
export function inspect(value: unknown): string {
  if (typeof value === 'string') return value.includes("'") ? JSON.stringify(value) : `'${value}'`;
  if (Array.isArray(value)) return value.length ? `[ ${value.map(inspect).join(', ')} ]` : '[]';
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value).map(([k, v]) => `${/^[A-Za-z_$][\w$]*$/.test(k) ? k : inspect(k)}: ${inspect(v)}`);
    return entries.length ? `{ ${entries.join(', ')} }` : '{}';
  }
  return String(value);
}

/** Node's ERR_INVALID_ARG_VALUE, the value shown as util.inspect shows it (cut at 128 characters). */
export function invalidArgValue(name: string, value: unknown): TypeError {
  const shown = inspect(value);
  return nodeError(
    TypeError,
    'ERR_INVALID_ARG_VALUE',
    `The argument '${name}' is invalid. Received ${shown.length > 128 ? `${shown.slice(0, 128)}...` : shown}`,
  );
}

const TOKEN = /^[\^_`a-zA-Z\-0-9!#$%&'*+.|~]+$/;
// Node refuses control characters other than tab (and anything past 0xff).
const INVALID_VALUE = /[^\t\x20-\x7e\x80-\xff]/;

export function validateHeaderName(name: unknown, label = 'Header name'): asserts name is string {
  if (typeof name !== 'string' || !name || !TOKEN.test(name)) {
    throw nodeError(TypeError, 'ERR_INVALID_HTTP_TOKEN', `${label} must be a valid HTTP token ["${String(name)}"]`);
  }
}

export function validateHeaderValue(name: string, value: unknown): void {
  if (value === undefined) throw nodeError(TypeError, 'ERR_HTTP_INVALID_HEADER_VALUE', `Invalid value "undefined" for header "${name}"`);
  const values = Array.isArray(value) ? value : [value];
  if (values.some((v) => INVALID_VALUE.test(String(v)))) throw nodeError(TypeError, 'ERR_INVALID_CHAR', `Invalid character in header content ["${name}"]`);
}

/** Headers Node keeps only the first of when they are repeated. */
const SINGLE = new Set([
  'content-type',
  'content-length',
  'user-agent',
  'referer',
  'host',
  'authorization',
  'proxy-authorization',
  'if-modified-since',
  'if-unmodified-since',
  'from',
  'location',
  'max-forwards',
  'retry-after',
  'etag',
  'last-modified',
  'server',
  'age',
  'expires',
]);

/** Raw header lines as a receiver reads them: values without the spaces and tabs around them. */
export function receivedRaw(lines: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i + 1 < lines.length; i += 2) out.push(lines[i]!, lines[i + 1]!.replace(/^[ \t]+|[ \t]+$/g, ''));
  return out;
}

/**
 * `IncomingMessage.headers` from raw lines (name, value, name, value…), as Node's _addHeaderLine
 * joins them: into a plain object (`headers.hasOwnProperty` works), so a header named like an
 * Object.prototype member behaves as in Node (`constructor` becomes an own property, `__proto__`
 * goes to the prototype setter and is dropped). fetch passes a null-prototype `into`, as undici keeps
 * every name.
 */
export function joinHeaders(raw: readonly string[], into: Record<string, string | string[]> = {}): Record<string, string | string[]> {
  const out = into;
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    const value = raw[i + 1]!;
    const had: unknown = out[name];
    if (name === 'set-cookie') out[name] = Array.isArray(had) ? [...(had as string[]), value] : [value];
    else if (SINGLE.has(name)) {
      if (had === undefined) out[name] = value;
    } else out[name] = typeof had === 'string' ? `${had}${name === 'cookie' ? '; ' : ', '}${value}` : value;
  }
  return out;
}

/** `IncomingMessage.headersDistinct`: every value of every header, in order. */
export function distinctHeaders(raw: readonly string[]): Record<string, string[]> {
  const out: Record<string, string[]> = Object.create(null);
  for (let i = 0; i + 1 < raw.length; i += 2) (out[raw[i]!.toLowerCase()] ??= []).push(raw[i + 1]!);
  return out;
}

/** One header as an outgoing message keeps it: the name as given, the value as given (number, string or array). */
export type StoredHeader = [name: string, value: number | string | readonly string[]];

/** The header lines a stored header is sent as: one line per value of an array (a cookie's values joined with "; "). */
export function lines(name: string, value: StoredHeader[1]): string[] {
  if (Array.isArray(value) && value.length > 1 && name.toLowerCase() === 'cookie') return [name, value.join('; ')];
  if (Array.isArray(value)) return value.flatMap((v) => [name, String(v)]);
  return [name, String(value)];
}
