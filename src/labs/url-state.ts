/**
 * A lab's state (parameters, seed, highlighted row) <-> the hash of a shareable link:
 * `#lab-retry-storm?budgetPercent=20&seed=3&policy=full-jitter-x3`. Only parameters that differ from
 * their defaults are written, through the registry's `toAssignments`, and read back through
 * `parseAssignments`, so a link and `npm run sim -- <name> --set key=value` speak the same language.
 */
import { DEFAULT_SEED, defaults, parseAssignments, toAssignments, validateSimParams, type AnySim, type ParamValues, type Text } from '../sims/index.ts';

export interface LabState {
  params: ParamValues;
  seed: number;
  /** The highlighted row (a policy, a strategy, a mode), or null for all of them. */
  focus: string | null;
}

/** The rows a lab can highlight: the key of their id column and the ids. */
export interface FocusSpec {
  key: string;
  values: string[];
}

export const labAnchor = (sim: string): string => `lab-${sim}`;

export function defaultState(sim: AnySim): LabState {
  return { params: defaults(sim.params), seed: DEFAULT_SEED, focus: null };
}

/** The URL key that carries the focus: the id column's key, unless a parameter already uses it. */
export function focusParamKey(sim: AnySim, focus: FocusSpec): string {
  return sim.params.some((p) => p.key === focus.key) || focus.key === 'seed' ? 'focus' : focus.key;
}

export function stateToHash(sim: AnySim, state: LabState, focus?: FocusSpec | null): string {
  const query = new URLSearchParams();
  for (const a of toAssignments(sim.params, state.params)) {
    const eq = a.indexOf('=');
    query.append(a.slice(0, eq), a.slice(eq + 1));
  }
  query.append('seed', String(state.seed));
  if (focus && state.focus !== null) query.append(focusParamKey(sim, focus), state.focus);
  return `#${labAnchor(sim.name)}?${query.toString()}`;
}

export interface ParsedHash {
  state: LabState;
  /** What could not be used; everything else in the link still applies. */
  errors: Text[];
}

const SEED_MAX = 0xffffffff;

/**
 * Read a hash written by `stateToHash`. Returns null when the hash is not about this lab.
 * A bad value is reported and replaced by its default; it does not throw away the rest of the link.
 */
export function hashToState(sim: AnySim, hash: string, focus?: FocusSpec | null): ParsedHash | null {
  const raw = hash.startsWith('#') ? hash.slice(1) : hash;
  const anchor = labAnchor(sim.name);
  if (raw !== anchor && !raw.startsWith(`${anchor}?`)) return null;
  const query = new URLSearchParams(raw.slice(anchor.length + 1));
  const state = defaultState(sim);
  const errors: Text[] = [];
  const focusKey = focus ? focusParamKey(sim, focus) : null;
  const input: Record<string, unknown> = {};
  for (const [key, value] of query) {
    if (key === 'seed') {
      const n = Number(value);
      if (value.trim() !== '' && Number.isInteger(n) && n >= 0 && n <= SEED_MAX) state.seed = n;
      else
        errors.push({
          vi: `Seed "${value}" không hợp lệ: cần số nguyên từ 0 đến ${SEED_MAX}.`,
          en: `Seed "${value}" is not valid: it must be an integer from 0 to ${SEED_MAX}.`,
        });
      continue;
    }
    if (focus && key === focusKey) {
      if (focus.values.includes(value)) state.focus = value;
      else
        errors.push({
          vi: `Không có "${value}" để làm nổi bật. Có: ${focus.values.join(', ')}.`,
          en: `There is no "${value}" to highlight. Available: ${focus.values.join(', ')}.`,
        });
      continue;
    }
    // One assignment at a time, so a single bad value does not discard the good ones.
    const one = parseAssignments(sim.params, [`${key}=${value}`]);
    if (one.ok) input[key] = one.params[key];
    else errors.push(...one.errors);
  }
  const checked = validateSimParams(sim, input);
  if (checked.ok) state.params = checked.params;
  else errors.push(...checked.errors); // a constraint between parameters failed: keep the defaults
  return { state, errors };
}
