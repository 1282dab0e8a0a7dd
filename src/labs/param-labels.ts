/**
 * Validation messages come from the simulations, which name parameters by their keys (what the
 * command line's `--set capacityPerTick=…` needs). A lab shows sliders with labels instead, so its
 * messages name the labels, in the page's language. Pure.
 */
import type { ParamSpec } from '../sims/index.ts';
import type { Lang } from './number-format.ts';

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export function labelKeys(message: string, specs: readonly ParamSpec[], lang: Lang): string {
  // Longest keys first, so a key that starts another ("max" / "maxMs") never replaces part of it.
  const sorted = [...specs].sort((a, b) => b.key.length - a.key.length);
  if (!sorted.length) return message;
  const pattern = new RegExp(`"?\\b(${sorted.map((s) => escapeRegExp(s.key)).join('|')})\\b"?`, 'g');
  const labels = new Map(specs.map((s) => [s.key, s.label[lang]]));
  return message.replace(pattern, (_, key: string) => `“${labels.get(key)}”`);
}
