import { existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { WorldInfo } from "@mcb/engine";
import { atomicWriteFile } from "@mcb/adapter-kit";
import { Section, VoxelStore } from "./VoxelStore.js";

/** Identity and height of a stored world: `WorldInfo` without the (runtime) capabilities. */
export type WorldMeta = Omit<WorldInfo, "capabilities">;

interface SectionFile {
  readonly palette: string[];
  /** u16 little-endian indices, base64. */
  readonly data: string;
  readonly entities: [number, string][];
}

const FORMAT = 1;
const SECTION_FILE = /^s\.(-?\d+)\.(-?\d+)\.(-?\d+)\.json$/;

/**
 * On-disk form of a memory world: `world.json` (format, identity, height) and one JSON file per
 * non-empty section under `sections/`. Each file is replaced atomically (write, fsync, rename), so a
 * crash leaves either the old or the new section, never a torn one.
 */
export class WorldDirectory {
  constructor(private readonly dir: string) {}

  load(): { meta: WorldMeta; store: VoxelStore } | null {
    const metaFile = join(this.dir, "world.json");
    if (!existsSync(metaFile)) return null;
    const raw = JSON.parse(readFileSync(metaFile, "utf8")) as WorldMeta & { format: unknown };
    if (raw.format !== FORMAT) throw new Error(`${metaFile}: format ${String(raw.format)}, expected ${FORMAT}`);
    const { format: _format, ...meta } = raw;
    const store = new VoxelStore();
    const sections = join(this.dir, "sections");
    if (existsSync(sections)) {
      for (const name of readdirSync(sections).sort()) {
        const m = SECTION_FILE.exec(name);
        if (m === null) continue;
        const f = JSON.parse(readFileSync(join(sections, name), "utf8")) as SectionFile;
        const bytes = Buffer.from(f.data, "base64");
        if (bytes.length !== 8192) throw new Error(`${name}: ${bytes.length} data bytes, expected 8192`);
        const data = new Uint16Array(4096);
        for (let i = 0; i < 4096; i++) data[i] = bytes.readUInt16LE(i * 2);
        const entities = f.entities.map(([i, d]): [number, Uint8Array] => [i, new Uint8Array(Buffer.from(d, "base64"))]);
        store.sections.set(`${m[1]},${m[2]},${m[3]}`, Section.restore(f.palette, data, entities));
      }
    }
    store.takeDirty();
    return { meta, store };
  }

  saveMeta(meta: WorldMeta): void {
    mkdirSync(join(this.dir, "sections"), { recursive: true });
    atomicWriteFile(join(this.dir, "world.json"), JSON.stringify({ format: FORMAT, ...meta }, null, 2));
  }

  saveSections(store: VoxelStore, keys: readonly string[]): void {
    for (const key of keys) {
      const s = store.sections.get(key);
      if (s === undefined) continue;
      const bytes = Buffer.alloc(8192);
      for (let i = 0; i < 4096; i++) bytes.writeUInt16LE(s.data[i]!, i * 2);
      const file: SectionFile = {
        palette: s.palette,
        data: bytes.toString("base64"),
        entities: [...s.entities].sort((a, b) => a[0] - b[0]).map(([i, d]) => [i, Buffer.from(d).toString("base64")]),
      };
      const [x, y, z] = key.split(",");
      atomicWriteFile(join(this.dir, "sections", `s.${x}.${y}.${z}.json`), JSON.stringify(file));
    }
  }
}
