// Errors as Node makes them (a `code`, Node's toString) and how its messages name a value: shared by
// the page's node:http and node:events, so neither has to reach into the other.

/** Node's error shape: a built-in error class with a `code`, the code shown in `toString()`. */
export function nodeError<E extends Error>(Kind: new (message: string) => E, code: string, message: string, extra: Record<string, unknown> = {}): E {
  const err = new Kind(message);
  Object.defineProperty(err, 'code', { value: code, enumerable: true, writable: true, configurable: true });
  Object.assign(err, extra);
  Object.defineProperty(err, 'toString', { value: () => `${err.name} [${code}]: ${err.message}`, configurable: true, writable: true });
  return err;
}

/** How Node's ERR_INVALID_ARG_TYPE names what it received ("an instance of Array", "type number (1)"). */
export function received(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (typeof value === 'function') return `function ${value.name}`;
  if (typeof value === 'object') return `an instance of ${(value as object).constructor?.name ?? 'Object'}`;
  if (typeof value === 'string') {
    const s = value.length > 28 ? `${value.slice(0, 25)}...` : value;
    return `type string (${s.includes("'") ? JSON.stringify(s) : `'${s}'`})`;
  }
  return `type ${typeof value} (${String(value)}${typeof value === 'bigint' ? 'n' : ''})`;
}
