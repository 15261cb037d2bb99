import type { Box3 } from "@mcb/blocks";

/**
 * An exact cover of a set of positions by boxes, for compact reports (conflicts, diffs): the boxes
 * hold exactly the positions, none twice. Greedy: runs along x, merged with the previous z row when
 * the x extent is the same, then with the previous y layer when the rectangle is the same. Not
 * always the fewest boxes; a solid box or a wall comes back as one box. Input: (x, y, z) triples in
 * any order, duplicates allowed. Output sorted by (minY, minZ, minX).
 */
export function coverBoxes(pos: Int32Array | readonly number[]): Box3[] {
  const n = pos.length / 3;
  if (n === 0) return [];
  const order = Array.from({ length: n }, (_, i) => i);
  const at = (i: number, k: number): number => pos[i * 3 + k]!;
  order.sort((a, b) => at(a, 1) - at(b, 1) || at(a, 2) - at(b, 2) || at(a, 0) - at(b, 0));

  // Maximal x-runs per (y, z) row, rows in (y, z) order.
  const rows: { y: number; z: number; runs: [number, number][] }[] = [];
  for (const i of order) {
    const x = at(i, 0),
      y = at(i, 1),
      z = at(i, 2);
    const row = rows[rows.length - 1];
    if (row === undefined || row.y !== y || row.z !== z) rows.push({ y, z, runs: [[x, x]] });
    else {
      const run = row.runs[row.runs.length - 1]!;
      if (x <= run[1] + 1) run[1] = Math.max(run[1], x);
      else row.runs.push([x, x]);
    }
  }

  // Rectangles (x0, x1, z0, z1) per layer: a run extends the rectangle of the row before when its
  // x extent is the same.
  const layers: { y: number; rects: Rect[] }[] = [];
  let previous = new Map<string, Rect>();
  let lastZ = NaN;
  for (const row of rows) {
    let layer = layers[layers.length - 1];
    if (layer === undefined || layer.y !== row.y) {
      layer = { y: row.y, rects: [] };
      layers.push(layer);
      previous = new Map();
    } else if (row.z !== lastZ + 1) previous = new Map();
    const current = new Map<string, Rect>();
    for (const [x0, x1] of row.runs) {
      const key = `${x0},${x1}`;
      let r = previous.get(key);
      if (r !== undefined) r.z1 = row.z;
      else {
        r = { x0, x1, z0: row.z, z1: row.z };
        layer.rects.push(r);
      }
      current.set(key, r);
    }
    previous = current;
    lastZ = row.z;
  }

  // Stack equal rectangles of consecutive layers into boxes.
  const boxes: Box3[] = [];
  let below = new Map<string, Box3 & { maxY: number }>();
  let prevY = NaN;
  for (const l of layers) {
    const here = new Map<string, Box3>();
    for (const r of l.rects) {
      const key = `${r.x0},${r.x1},${r.z0},${r.z1}`;
      const b = l.y === prevY + 1 ? below.get(key) : undefined;
      if (b !== undefined) {
        (b as { maxY: number }).maxY = l.y;
        here.set(key, b);
      } else {
        const box = { minX: r.x0, minY: l.y, minZ: r.z0, maxX: r.x1, maxY: l.y, maxZ: r.z1 };
        boxes.push(box);
        here.set(key, box);
      }
    }
    below = here as typeof below;
    prevY = l.y;
  }
  return boxes.sort((a, b) => a.minY - b.minY || a.minZ - b.minZ || a.minX - b.minX);
}

interface Rect {
  x0: number;
  x1: number;
  z0: number;
  z1: number;
}
