import { posKey } from "@mcb/blocks";

/**
 * Multi-block structures written as indivisible groups (docs/DESIGN.md "Slices and the journal"): the two halves of a door or
 * tall plant (`half=lower|upper`, stacked) and the two parts of a bed (`part=foot|head`, along
 * `facing`). A pair is grouped only when both members are in the same write set and point at each
 * other with the same block id.
 */

const FACING: Readonly<Record<string, readonly [number, number]>> = { north: [0, -1], south: [0, 1], west: [-1, 0], east: [1, 0] };

export interface PartnerLink {
  readonly id: string;
  readonly dx: number;
  readonly dy: number;
  readonly dz: number;
}

/** Where the other member of this state's pair must be, or null for an ordinary block. */
export function partnerOf(state: string): PartnerLink | null {
  const open = state.indexOf("[");
  if (open < 0) return null;
  const id = state.slice(0, open);
  const props = new Map(
    state
      .slice(open + 1, -1)
      .split(",")
      .map((kv) => kv.split("=") as [string, string]),
  );
  const half = props.get("half");
  if (half === "lower") return { id, dx: 0, dy: 1, dz: 0 };
  if (half === "upper") return { id, dx: 0, dy: -1, dz: 0 };
  const part = props.get("part");
  const dir = FACING[props.get("facing") ?? ""];
  if (dir === undefined || (part !== "foot" && part !== "head")) return null;
  const sign = part === "foot" ? 1 : -1;
  return { id, dx: dir[0] * sign || 0, dy: 0, dz: dir[1] * sign || 0 }; // no -0
}

function linksTo(state: string, x: number, y: number, z: number, tx: number, ty: number, tz: number): string | null {
  const l = partnerOf(state);
  return l !== null && x + l.dx === tx && y + l.dy === ty && z + l.dz === tz ? l.id : null;
}

/**
 * Reorders a write set (x, y, z triples with before/after states, in plan order) so that each
 * multi-block pair is adjacent, its first member keeping its place. Returns the new order (indices
 * into the input) and the positions in the new order that start a pair.
 */
export function pairMultipart(pos: readonly number[], before: readonly string[], after: readonly string[]): { order: number[]; pairStarts: number[] } {
  const n = before.length;
  const index = new Map<string, number>();
  for (let i = 0; i < n; i++) index.set(posKey(pos[i * 3]!, pos[i * 3 + 1]!, pos[i * 3 + 2]!), i);
  const taken = new Uint8Array(n);
  const order: number[] = [];
  const pairStarts: number[] = [];
  for (let i = 0; i < n; i++) {
    if (taken[i] === 1) continue;
    taken[i] = 1;
    order.push(i);
    const x = pos[i * 3]!,
      y = pos[i * 3 + 1]!,
      z = pos[i * 3 + 2]!;
    for (const state of [after[i]!, before[i]!]) {
      const l = partnerOf(state);
      if (l === null) continue;
      const j = index.get(posKey(x + l.dx, y + l.dy, z + l.dz));
      if (j === undefined || taken[j] === 1) continue;
      const jx = pos[j * 3]!,
        jy = pos[j * 3 + 1]!,
        jz = pos[j * 3 + 2]!;
      const back = linksTo(after[j]!, jx, jy, jz, x, y, z) ?? linksTo(before[j]!, jx, jy, jz, x, y, z);
      if (back !== l.id) continue;
      taken[j] = 1;
      pairStarts.push(order.length - 1);
      order.push(j);
      break;
    }
  }
  return { order, pairStarts };
}

/**
 * Slice boundaries [0, b1, …, n]: slices of at most `size` writes that never split a pair.
 * `size` ≥ 2.
 */
export function sliceBounds(n: number, pairStarts: ArrayLike<number>, size: number): number[] {
  const starts = new Set<number>(Array.from(pairStarts));
  const bounds = [0];
  let start = 0;
  while (start < n) {
    let end = Math.min(n, start + size);
    if (end < n && starts.has(end - 1)) end--;
    bounds.push(end);
    start = end;
  }
  return bounds;
}
