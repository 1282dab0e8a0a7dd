import { expect, it } from 'vitest';
import { placeLabels, type LabelBox } from './marker-labels.ts';

const plot = { left: 50, right: 250, top: 10, rowHeight: 15 };
const overlap = (a: LabelBox, b: LabelBox) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

it('puts close markers’ labels in separate rows, inside the plot, and skips markers outside it', () => {
  const boxes = placeLabels(
    [
      { x: 60, width: 90 },
      { x: 80, width: 70 },
      { x: 240, width: 60 },
      { x: 400, width: 10 },
    ],
    plot,
  );
  const shown = boxes.filter((b): b is LabelBox => b !== undefined);
  expect(shown).toHaveLength(3);
  expect(boxes[3]).toBeUndefined();
  for (const [i, a] of shown.entries()) {
    expect(a.x).toBeGreaterThanOrEqual(plot.left);
    expect(a.x + a.width).toBeLessThanOrEqual(plot.right);
    for (const b of shown.slice(i + 1)) expect(overlap(a, b)).toBe(false);
  }
  expect(boxes[2]!.x + boxes[2]!.width).toBeLessThanOrEqual(240); // no room on the right: left of its line
});

it('keeps far-apart labels on the first row', () => {
  const [a, b] = placeLabels(
    [
      { x: 60, width: 40 },
      { x: 200, width: 40 },
    ],
    plot,
  );
  expect(a!.y).toBe(b!.y);
});
