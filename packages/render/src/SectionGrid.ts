import { lookOf, type BlockLook } from "./BlockColors.js";
import { markLook, markOf } from "./PreviewMarks.js";
import { brickDistances, columnTops } from "./BrickDistance.js";
import { allocateScene, COLUMN_RADII, type Scene } from "./Scene.js";

/**
 * Collects section reads as look indices (0 = nothing drawn), then `seal` flattens them into a
 * `Scene`. A section that draws nothing, or was never loaded, is skipped by rays whole.
 */
export class SectionGrid {
  readonly looks: BlockLook[] = [{ r: 0, g: 0, b: 0, surface: "none", alpha: 0, model: null, texture: 0 }];
  private readonly byState = new Map<string, number>();
  /** The sections that draw something (the others are skipped by rays like unloaded ones). */
  private readonly drawn: { sx: number; sy: number; sz: number; cells: Uint16Array }[] = [];

  get nonEmpty(): number {
    return this.drawn.length;
  }

  private lookIndex(entry: string): number {
    let i = this.byState.get(entry);
    if (i === undefined) {
      const { state, mark } = markOf(entry); // a plan preview's mark (see PreviewMarks)
      const look = mark === null ? lookOf(state) : markLook(lookOf(state), mark);
      i = look.surface === "none" ? 0 : this.looks.push(look) - 1;
      this.byState.set(entry, i);
    }
    return i;
  }

  /** Stores one section read: `states` in y, z, x order over the whole 16³ section. */
  addSection(sx: number, sy: number, sz: number, palette: readonly string[], states: Uint32Array): void {
    const map = palette.map((s) => this.lookIndex(s));
    if (map.every((m) => m === 0)) return;
    const cells = new Uint16Array(4096);
    for (let i = 0; i < 4096; i++) cells[i] = map[states[i]!]!;
    this.drawn.push({ sx, sy, sz, cells });
  }

  /** Flattens every added section into a scene (sections added later are not in it). */
  seal(): Scene {
    let x0 = 0,
      y0 = 0,
      z0 = 0,
      x1 = -1,
      y1 = -1,
      z1 = -1;
    const drawn = this.drawn;
    if (drawn.length > 0) {
      [x0, y0, z0, x1, y1, z1] = [Infinity, Infinity, Infinity, -Infinity, -Infinity, -Infinity];
      for (const { sx, sy, sz } of drawn) {
        ((x0 = Math.min(x0, sx)), (y0 = Math.min(y0, sy)), (z0 = Math.min(z0, sz)));
        ((x1 = Math.max(x1, sx)), (y1 = Math.max(y1, sy)), (z1 = Math.max(z1, sz)));
      }
    }
    const nx = x1 - x0 + 1,
      ny = y1 - y0 + 1,
      nz = z1 - z0 + 1;
    const scene = allocateScene([x0, y0, z0], [nx, ny, nz], drawn.length, this.looks);
    const occupied = new Uint8Array(scene.bricks.length);
    const bnx = nx * 4,
      bnz = nz * 4;
    drawn.forEach(({ sx, sy, sz, cells }, k) => {
      scene.slots[sx - x0 + (sz - z0 + (sy - y0) * nz) * nx] = k + 1;
      scene.cells.set(cells, k * 4096);
      const bx = (sx - x0) * 4,
        by = (sy - y0) * 4,
        bz = (sz - z0) * 4;
      for (let i = 0; i < 4096; i++) if (cells[i] !== 0) occupied[bx + ((i >> 2) & 3) + (bz + ((i >> 6) & 3) + (by + ((i >> 10) & 3)) * bnz) * bnx] = 1;
    });
    brickDistances(occupied, bnx, ny * 4, bnz, scene.bricks);
    columnTops(occupied, bnx, ny * 4, bnz, COLUMN_RADII, scene.tops);
    return scene;
  }
}
