/**
 * Where a chart's marker labels go (canvas pixels): beside their line, on the side with room, each
 * in the first row where it overlaps no label already placed. Pure, so the layout is unit-tested.
 */
export interface LabelBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

const overlaps = (a: LabelBox, b: LabelBox) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** `undefined` for a marker outside the plot. */
export function placeLabels(
  labels: readonly { x: number; width: number }[],
  plot: { left: number; right: number; top: number; rowHeight: number },
): (LabelBox | undefined)[] {
  const placed: LabelBox[] = [];
  return labels.map(({ x, width }) => {
    if (!(x >= plot.left && x <= plot.right)) return undefined;
    // Right of the line when it fits, else left of it; never past the plot's edges.
    const fitsRight = x + 4 + width <= plot.right;
    const left = Math.max(plot.left, Math.min(fitsRight ? x + 4 : x - 4 - width, plot.right - width));
    let row = 0;
    let box: LabelBox;
    do box = { x: left, y: plot.top + row++ * plot.rowHeight, width, height: plot.rowHeight - 1 };
    while (placed.some((p) => overlaps(p, box)));
    placed.push(box);
    return box;
  });
}
