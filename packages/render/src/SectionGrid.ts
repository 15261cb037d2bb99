import { lookOf, type BlockLook } from "./BlockColors.js";

/** An inclusive box (engine `Box3` shape). */
export interface Box {
  readonly minX: number;
  readonly minY: number;
  readonly minZ: number;
  readonly maxX: number;
  readonly maxY: number;
  readonly maxZ: number;
}

/**
 * Loaded 16³ sections as look indices (0 = nothing drawn). A section that draws nothing is stored
 * as `null` so rays skip it whole; a section never loaded is `undefined` (also skipped).
 */
export class SectionGrid {
  readonly looks: BlockLook[] = [{ r: 0, g: 0, b: 0, surface: "none", alpha: 0, shape: null }];
  private readonly byState = new Map<string, number>();
  /** Sections as added: coordinates and cells (null when nothing in them is drawn). */
  private readonly added: { sx: number; sy: number; sz: number; cells: Uint16Array | null }[] = [];
  nonEmpty = 0;
  // Dense lookup over the loaded sections' bounding box, built by `seal` (ray casting is hot).
  private ox = 0;
  private oy = 0;
  private oz = 0;
  private nx = 0;
  private ny = 0;
  private nz = 0;
  private dense: (Uint16Array | null | undefined)[] = [];

  private lookIndex(state: string): number {
    let i = this.byState.get(state);
    if (i === undefined) {
      const look = lookOf(state);
      i = look.surface === "none" ? 0 : this.looks.push(look) - 1;
      this.byState.set(state, i);
    }
    return i;
  }

  /** Stores one section read: `states` in y, z, x order over the section-aligned `box`. */
  addSection(sx: number, sy: number, sz: number, palette: readonly string[], states: Uint32Array): void {
    const map = palette.map((s) => this.lookIndex(s));
    if (map.every((m) => m === 0)) {
      this.added.push({ sx, sy, sz, cells: null });
      return;
    }
    const cells = new Uint16Array(4096);
    for (let i = 0; i < 4096; i++) cells[i] = map[states[i]!]!;
    this.added.push({ sx, sy, sz, cells });
    this.nonEmpty++;
  }

  /** Builds the dense lookup once every section is added (sections added later are not seen). */
  seal(): void {
    if (this.added.length === 0) return;
    let x0 = Infinity, y0 = Infinity, z0 = Infinity, x1 = -Infinity, y1 = -Infinity, z1 = -Infinity;
    for (const { sx, sy, sz } of this.added) {
      x0 = Math.min(x0, sx), y0 = Math.min(y0, sy), z0 = Math.min(z0, sz);
      x1 = Math.max(x1, sx), y1 = Math.max(y1, sy), z1 = Math.max(z1, sz);
    }
    this.ox = x0, this.oy = y0, this.oz = z0;
    this.nx = x1 - x0 + 1, this.ny = y1 - y0 + 1, this.nz = z1 - z0 + 1;
    this.dense = new Array(this.nx * this.ny * this.nz).fill(undefined);
    for (const { sx, sy, sz, cells } of this.added) this.dense[(sx - x0) + ((sz - z0) + (sy - y0) * this.nz) * this.nx] = cells;
  }

  section(sx: number, sy: number, sz: number): Uint16Array | null | undefined {
    const x = sx - this.ox, y = sy - this.oy, z = sz - this.oz;
    if (x < 0 || y < 0 || z < 0 || x >= this.nx || y >= this.ny || z >= this.nz) return undefined;
    return this.dense[x + (z + y * this.nz) * this.nx];
  }
}
