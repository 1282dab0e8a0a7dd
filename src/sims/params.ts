/**
 * A simulation's parameters: defaults, validation against their specs (with messages in both
 * languages), and the `key=value` form the command line and links use.
 */
import type { NumberParamSpec, ParamSpec, ParamValue, ParamValues, Text } from './types.ts';

export type Validation<P> = { ok: true; params: P } | { ok: false; errors: Text[] };

export function defaults(specs: readonly ParamSpec[]): ParamValues {
  return Object.fromEntries(specs.map((s) => [s.key, s.default]));
}

function checkNumber(spec: NumberParamSpec, value: number): Text | null {
  if (!Number.isFinite(value)) {
    return { vi: `Tham số "${spec.key}" phải là một số.`, en: `Parameter "${spec.key}" must be a number.` };
  }
  if (spec.kind === 'int' && !Number.isInteger(value)) {
    return { vi: `Tham số "${spec.key}" phải là số nguyên (nhận ${value}).`, en: `Parameter "${spec.key}" must be an integer (got ${value}).` };
  }
  if (value < spec.min || value > spec.max) {
    return {
      vi: `Tham số "${spec.key}" phải nằm trong khoảng ${spec.min} đến ${spec.max} (nhận ${value}).`,
      en: `Parameter "${spec.key}" must be between ${spec.min} and ${spec.max} (got ${value}).`,
    };
  }
  return null;
}

function checkValue(spec: ParamSpec, value: unknown): Text | null {
  switch (spec.kind) {
    case 'int':
    case 'number':
      if (typeof value !== 'number') {
        return { vi: `Tham số "${spec.key}" phải là một số.`, en: `Parameter "${spec.key}" must be a number.` };
      }
      return checkNumber(spec, value);
    case 'boolean':
      return typeof value === 'boolean' ? null : { vi: `Tham số "${spec.key}" phải là true hoặc false.`, en: `Parameter "${spec.key}" must be true or false.` };
    case 'select': {
      const allowed = spec.options.map((o) => o.value);
      return typeof value === 'string' && allowed.includes(value)
        ? null
        : {
            vi: `Tham số "${spec.key}" phải là một trong: ${allowed.join(', ')} (nhận ${String(value)}).`,
            en: `Parameter "${spec.key}" must be one of: ${allowed.join(', ')} (got ${String(value)}).`,
          };
    }
  }
}

/**
 * Check a partial set of parameters against the specs and fill in defaults.
 * Unknown keys and out-of-range values are errors, reported in both languages.
 */
export function validateParams<P extends ParamValues = ParamValues>(specs: readonly ParamSpec[], input: Readonly<Record<string, unknown>>): Validation<P> {
  const errors: Text[] = [];
  const known = new Map(specs.map((s) => [s.key, s]));
  for (const key of Object.keys(input)) {
    if (!known.has(key)) {
      errors.push({
        vi: `Không có tham số "${key}". Các tham số hợp lệ: ${[...known.keys()].join(', ')}.`,
        en: `Unknown parameter "${key}". Valid parameters: ${[...known.keys()].join(', ')}.`,
      });
    }
  }
  const params: ParamValues = {};
  for (const spec of specs) {
    const value = Object.hasOwn(input, spec.key) ? input[spec.key] : spec.default;
    const error = checkValue(spec, value);
    if (error) errors.push(error);
    else params[spec.key] = value as ParamValue;
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, params: params as P };
}

/** Turn a command-line or URL string into a typed value for this spec (validation comes after). */
export function parseParamValue(spec: ParamSpec, raw: string): ParamValue | undefined {
  switch (spec.kind) {
    case 'int':
    case 'number': {
      const trimmed = raw.trim();
      if (trimmed === '') return undefined;
      const n = Number(trimmed);
      return Number.isNaN(n) ? undefined : n;
    }
    case 'boolean':
      if (/^(true|1|yes|on)$/i.test(raw)) return true;
      if (/^(false|0|no|off)$/i.test(raw)) return false;
      return undefined;
    case 'select':
      return raw;
  }
}

/**
 * Parse `key=value` strings (CLI `--set`, a shareable URL) into a checked parameter set.
 */
export function parseAssignments<P extends ParamValues = ParamValues>(specs: readonly ParamSpec[], assignments: readonly string[]): Validation<P> {
  const input: Record<string, unknown> = {};
  const errors: Text[] = [];
  const known = new Map(specs.map((s) => [s.key, s]));
  for (const a of assignments) {
    const eq = a.indexOf('=');
    if (eq <= 0) {
      errors.push({ vi: `"${a}" không có dạng key=value.`, en: `"${a}" is not of the form key=value.` });
      continue;
    }
    const key = a.slice(0, eq);
    const raw = a.slice(eq + 1);
    const spec = known.get(key);
    if (!spec) {
      input[key] = raw; // reported as unknown by validateParams
      continue;
    }
    const value = parseParamValue(spec, raw);
    if (value === undefined) {
      errors.push({
        vi: `Giá trị "${raw}" không hợp lệ cho tham số "${key}" (${spec.kind}).`,
        en: `Value "${raw}" is not valid for parameter "${key}" (${spec.kind}).`,
      });
      continue;
    }
    input[key] = value;
  }
  const checked = validateParams<P>(specs, input);
  if (errors.length === 0) return checked;
  return { ok: false, errors: [...errors, ...(checked.ok ? [] : checked.errors)] };
}

/** The parameters that differ from their defaults, as `key=value` strings (for a shareable link or a CLI line). */
export function toAssignments(specs: readonly ParamSpec[], params: Readonly<ParamValues>): string[] {
  return specs.filter((s) => Object.hasOwn(params, s.key) && params[s.key] !== s.default).map((s) => `${s.key}=${String(params[s.key])}`);
}
