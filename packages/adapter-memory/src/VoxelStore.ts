import { compactPalette } from "@mcb/adapter-kit";
/**
 * Sparse chunked voxel storage: 16×16×16 sections created on first non-air write, each a local
 * palette plus one u16 index per block (y, z, x order, x fastest). Unset positions are air.
 * Block-entity data lives per section, keyed by the in-section index.
 */
export const AIR = "minecraft:air";

export class Section {
  readonly palette: string[] = [AIR];
  private readonly lookup = new Map<string, number>([[AIR, 0]]);
  readonly data = new Uint16Array(4096);
  readonly entities = new Map<number, Uint8Array>();

  get(i: number): string {
    return this.palette[this.data[i]!]!;
  }

  set(i: number, state: string): void {
    let p = this.lookup.get(state);
    if (p === undefined) {
      if (this.palette.length >= 4096) this.compact();
      p = this.palette.length;
      this.palette.push(state);
      this.lookup.set(state, p);
    }
    this.data[i] = p;
  }

  /** Drops palette entries no block uses (keeps air at 0); called when the palette fills up. */
  private compact(): void {
    const kept = compactPalette(this.palette, this.data, true);
    this.palette.length = 0;
    this.palette.push(...kept);
    this.lookup.clear();
    kept.forEach((s, i) => this.lookup.set(s, i));
  }

  static restore(palette: readonly string[], data: Uint16Array, entities: Iterable<[number, Uint8Array]>): Section {
    const s = new Section();
    s.palette.length = 0;
    s.lookup.clear();
    palette.forEach((p, i) => {
      s.palette.push(p);
      s.lookup.set(p, i);
    });
    if (s.palette[0] !== AIR) throw new Error("section palette must start with air");
    for (const v of data) if (v >= palette.length) throw new Error(`section index ${v} outside palette of ${palette.length}`);
    s.data.set(data);
    for (const [i, d] of entities) s.entities.set(i, d);
    return s;
  }
}

export function sectionKey(x: number, y: number, z: number): string {
  return `${x >> 4},${y >> 4},${z >> 4}`;
}

export function sectionIndex(x: number, y: number, z: number): number {
  return ((y & 15) << 8) | ((z & 15) << 4) | (x & 15);
}

export class VoxelStore {
  readonly sections = new Map<string, Section>();
  /** Keys of sections changed since the last `takeDirty`. */
  private readonly dirty = new Set<string>();

  get(x: number, y: number, z: number): string {
    const s = this.sections.get(sectionKey(x, y, z));
    return s === undefined ? AIR : s.get(sectionIndex(x, y, z));
  }

  entity(x: number, y: number, z: number): Uint8Array | undefined {
    return this.sections.get(sectionKey(x, y, z))?.entities.get(sectionIndex(x, y, z));
  }

  /** Sets the state and the block-entity data (undefined: no block entity). */
  set(x: number, y: number, z: number, state: string, entity: Uint8Array | undefined): void {
    const key = sectionKey(x, y, z);
    let s = this.sections.get(key);
    if (s === undefined) {
      if (state === AIR && entity === undefined) return;
      s = new Section();
      this.sections.set(key, s);
    }
    const i = sectionIndex(x, y, z);
    s.set(i, state);
    if (entity === undefined) s.entities.delete(i);
    else s.entities.set(i, entity);
    this.dirty.add(key);
  }

  takeDirty(): string[] {
    const keys = [...this.dirty];
    this.dirty.clear();
    return keys;
  }
}
