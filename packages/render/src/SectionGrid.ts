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

const OFF = 2 ** 21;

/** Numeric key of a 16³ section (safe integer for |section x, z| < 2^21, |section y| < 256). */
export function sectionKey(sx: number, sy: number, sz: number): number {
  return ((sx + OFF) * 2 ** 22 + (sz + OFF)) * 512 + (sy + 256);
}

/**
 * Loaded 16³ sections as look indices (0 = nothing drawn). A section that draws nothing is stored
 * as `null` so rays skip it whole; a section never loaded is `undefined` (also skipped).
 */
export class SectionGrid {
  readonly looks: BlockLook[] = [{ r: 0, g: 0, b: 0, surface: "none", alpha: 0 }];
  private readonly byState = new Map<string, number>();
  private readonly sections = new Map<number, Uint16Array | null>();
  nonEmpty = 0;

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
      this.sections.set(sectionKey(sx, sy, sz), null);
      return;
    }
    const cells = new Uint16Array(4096);
    for (let i = 0; i < 4096; i++) cells[i] = map[states[i]!]!;
    this.sections.set(sectionKey(sx, sy, sz), cells);
    this.nonEmpty++;
  }

  section(sx: number, sy: number, sz: number): Uint16Array | null | undefined {
    return this.sections.get(sectionKey(sx, sy, sz));
  }
}
