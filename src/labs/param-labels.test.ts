import { expect, it } from 'vitest';
import { validateParams } from '../sims/params.ts';
import type { ParamSpec } from '../sims/index.ts';
import { labelKeys } from './param-labels.ts';

const specs: ParamSpec[] = [
  {
    key: 'capacityPerTick',
    kind: 'int',
    min: 1,
    max: 10000,
    step: 1,
    default: 100,
    label: { vi: 'Capacity (request mỗi tick)', en: 'Capacity (requests per tick)' },
  },
  { key: 'minMs', kind: 'number', min: 0, max: 100, step: 1, default: 1, label: { vi: 'Nhỏ nhất', en: 'Smallest' } },
  { key: 'maxMs', kind: 'number', min: 0, max: 100, step: 1, default: 2, label: { vi: 'Lớn nhất', en: 'Largest' } },
];

it('names parameters by their labels in the page’s language, quoted or bare', () => {
  const v = validateParams(specs, { capacityPerTick: 0 });
  expect(v.ok).toBe(false);
  if (v.ok) return;
  expect(labelKeys(v.errors[0]!.en, specs, 'en')).toBe('Parameter “Capacity (requests per tick)” must be between 1 and 10000 (got 0).');
  expect(labelKeys(v.errors[0]!.vi, specs, 'vi')).toContain('“Capacity (request mỗi tick)”');
  expect(labelKeys('maxMs must be at least minMs.', specs, 'en')).toBe('“Largest” must be at least “Smallest”.');
  expect(labelKeys('no key here', specs, 'en')).toBe('no key here');
});
