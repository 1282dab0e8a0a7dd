/**
 * Where a slider's thumb sits for a value, and back. A range like 1 to 1,000,000 requests, or 1 ms to
 * 60 s, is unusable on a linear slider (the default would sit in the first pixel), so wide ranges get a
 * logarithmic slider; the exact value is always typed in the number box beside it.
 */
import type { NumberParamSpec } from '../sims/index.ts';

export interface SliderScale {
  /** The range input's own min, max and step. */
  min: number;
  max: number;
  step: number;
  log: boolean;
  toSlider(value: number): number;
  fromSlider(position: number): number;
}

const LOG_POSITIONS = 1000;

function stepOf(spec: NumberParamSpec): number {
  return spec.step ?? (spec.kind === 'int' ? 1 : (spec.max - spec.min) / 100);
}

/** Snap to the spec's step grid (from min) and clear float noise. */
export function snap(spec: NumberParamSpec, value: number): number {
  const step = stepOf(spec);
  const snapped = spec.min + Math.round((value - spec.min) / step) * step;
  const decimals = Math.max(0, -Math.floor(Math.log10(step)) + 1);
  const clean = Number(snapped.toFixed(Math.min(10, decimals)));
  return Math.min(spec.max, Math.max(spec.min, spec.kind === 'int' ? Math.round(clean) : clean));
}

export function isWide(spec: NumberParamSpec): boolean {
  const step = stepOf(spec);
  const positions = (spec.max - spec.min) / step;
  const span = (spec.max - spec.min) / Math.max(spec.min, step);
  return positions >= 500 && span >= 100;
}

export function sliderScale(spec: NumberParamSpec): SliderScale {
  const step = stepOf(spec);
  if (!isWide(spec)) {
    return { min: spec.min, max: spec.max, step, log: false, toSlider: (v) => v, fromSlider: (p) => snap(spec, p) };
  }
  // v = min + step * (R^t - 1), t in [0, 1]: the offset by one step lets the range start at 0.
  const R = (spec.max - spec.min) / step + 1;
  const lnR = Math.log(R);
  return {
    min: 0,
    max: LOG_POSITIONS,
    step: 1,
    log: true,
    toSlider: (v) => Math.round((Math.log((Math.min(spec.max, Math.max(spec.min, v)) - spec.min) / step + 1) / lnR) * LOG_POSITIONS),
    fromSlider: (p) => {
      const t = Math.min(LOG_POSITIONS, Math.max(0, p)) / LOG_POSITIONS;
      const raw = spec.min + step * (Math.exp(t * lnR) - 1);
      // Two significant figures of the distance from min read better than 1047.13 (and stay on the step grid).
      const d = raw - spec.min;
      const mag = d > 0 ? 10 ** (Math.floor(Math.log10(d)) - 1) : step;
      return snap(spec, spec.min + Math.round(d / Math.max(mag, step)) * Math.max(mag, step));
    },
  };
}

/** "Nice" values per decade for the ± buttons of a logarithmic slider: steps of 20 to 50 %. */
const NICE = [1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8];

/**
 * The value one press of − (dir -1) or + (dir 1) gives: on a logarithmic slider the next "nice" value
 * (100 → 120 → 150 → 200, 100 → 80), so a learner moves a wide range in small, predictable steps
 * instead of tapping the track (a tap at 20 % of the capacity slider jumped from 100 to 5); on a
 * linear one, one step. Always on the step grid and inside the range; `value` itself when at an end.
 */
export function nudge(spec: NumberParamSpec, value: number, dir: 1 | -1): number {
  const step = stepOf(spec);
  const v = Math.min(spec.max, Math.max(spec.min, value));
  let next: number;
  if (!isWide(spec)) next = v + dir * step;
  else {
    const decade = Math.floor(Math.log10(Math.max(Math.abs(v), step)));
    const candidates = [decade - 1, decade, decade + 1].flatMap((k) => NICE.map((n) => Number((n * 10 ** k).toPrecision(6))));
    const beyond = candidates.filter((c) => (dir > 0 ? c > v + step / 2 : c < v - step / 2));
    next = beyond.length ? (dir > 0 ? Math.min(...beyond) : Math.max(...beyond)) : v + dir * step;
  }
  let snapped = snap(spec, next);
  // The step grid may pull a nice value back onto the one we started from: move at least one step.
  if (snapped === v) snapped = snap(spec, v + dir * step);
  return snapped;
}
