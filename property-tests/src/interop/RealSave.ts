import { mkdirSync, readFileSync, readdirSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { deflateSync, gzipSync, inflateSync } from "node:zlib";
import { formatState, parseStateSyntax, upgradeState } from "@mcb/blocks";
import { NbtReader, TAG, encodeNbt, nbt, type NbtCompound, type NbtValue } from "@mcb/nbt";

/**
 * Region files the game saved (prismarine-provider-anvil 2.13.0's test fixtures, MIT, a
 * devDependency: `test/fixtures/<version>/r.X.Z.mca`), made into a save mcb may edit: every chunk
 * restamped to a 26.x DataVersion with its states renamed to that version (the game's own upgrade
 * of these chunks changes nothing else we read), moved to another region when asked (its `xPos`
 * and block entities' x/z), and written back **at the sector the game gave it**, in zlib as the
 * game wrote it, padded as before: the file keeps the game's layout (sizes, gaps, order), with its
 * heightmaps, light, block entities and every other tag as the game stored them. A chunk that no
 * longer fits its sectors (a few bytes more after renaming) goes to the end of the file.
 */
export const FIXTURES = join(dirname(createRequire(import.meta.url).resolve("prismarine-provider-anvil/package.json")), "test", "fixtures");

const SECTOR = 4096;

/** The fixture region of a game version (each fixture folder holds one region file). */
export function fixtureRegion(version: string): { path: string; rx: number; rz: number } {
  const file = readdirSync(join(FIXTURES, version)).find((f) => f.endsWith(".mca"))!;
  const [rx, rz] = /r\.(-?\d+)\.(-?\d+)\.mca/.exec(file)!.slice(1).map(Number) as [number, number];
  return { path: join(FIXTURES, version, file), rx, rz };
}

export interface RealRegion {
  /** The game version whose fixture region is used (`1.21.1`, `1.20.6`, …). */
  readonly version: string;
  /** The fixture's DataVersion (its chunks' states are renamed from it). */
  readonly from: number;
  /** Where it lies in the save (default: where the game saved it). */
  readonly rx?: number;
  readonly rz?: number;
}

/**
 * A 26.x save (level.dat of `dataVersion` / `release`, the `dimensions/` layout) holding the given
 * fixture regions, restamped. Returns the save folder and its region folder.
 */
export function realSave(dir: string, regions: readonly RealRegion[], dataVersion: number, release: string): { save: string; regionDir: string } {
  const regionDir = join(dir, "dimensions", "minecraft", "overworld", "region");
  mkdirSync(regionDir, { recursive: true });
  const version = nbt.compound([
    ["Id", nbt.int(dataVersion)],
    ["Name", nbt.string(release)],
    ["Series", nbt.string("main")],
    ["Snapshot", nbt.byte(0)],
  ]);
  const data = nbt.compound([
    ["DataVersion", nbt.int(dataVersion)],
    ["Version", version],
    ["LevelName", nbt.string(`real chunks (${regions.map((r) => r.version).join(", ")})`)],
    ["version", nbt.int(19133)],
  ]);
  writeFileSync(join(dir, "level.dat"), gzipSync(encodeNbt("", nbt.compound([["Data", data]]))));
  for (const r of regions) {
    const src = fixtureRegion(r.version);
    const rx = r.rx ?? src.rx,
      rz = r.rz ?? src.rz;
    restampRegion(src.path, join(regionDir, `r.${rx}.${rz}.mca`), { dx: (rx - src.rx) * 32, dz: (rz - src.rz) * 32, from: r.from, to: dataVersion });
  }
  return { save: dir, regionDir };
}

/** Rewrites a region file's chunks in place of their old sectors (see the module). */
function restampRegion(src: string, dest: string, how: { dx: number; dz: number; from: number; to: number }): void {
  const file = readFileSync(src);
  let out = Buffer.from(file);
  const moved: { index: number; record: Buffer }[] = [];
  for (let i = 0; i < 1024; i++) {
    const entry = file.readUInt32BE(i * 4);
    if (entry === 0) continue;
    const start = entry >>> 8,
      count = entry & 255;
    const length = file.readUInt32BE(start * SECTOR);
    if (file[start * SECTOR + 4] !== 2) throw new Error(`${src}: chunk ${i} is not zlib`);
    const root = read(inflateSync(file.subarray(start * SECTOR + 5, start * SECTOR + 4 + length)));
    const body = deflateSync(encodeNbt("", restamp(root, how)));
    const record = Buffer.alloc(Math.ceil((5 + body.length) / SECTOR) * SECTOR);
    record.writeUInt32BE(body.length + 1, 0);
    record[4] = 2;
    body.copy(record, 5);
    out.fill(0, start * SECTOR, Math.min(out.length, (start + count) * SECTOR));
    if (record.length / SECTOR <= count) {
      record.copy(out, start * SECTOR);
      out.writeUInt32BE(((start << 8) | (record.length / SECTOR)) >>> 0, i * 4);
    } else moved.push({ index: i, record });
  }
  for (const { index, record } of moved) {
    const at = Math.ceil(out.length / SECTOR);
    out = Buffer.concat([out, Buffer.alloc(at * SECTOR - out.length), record]);
    out.writeUInt32BE(((at << 8) | (record.length / SECTOR)) >>> 0, index * 4);
  }
  writeFileSync(dest, out);
}

function read(bytes: Uint8Array): NbtCompound {
  const r = new NbtReader(bytes);
  r.root();
  return r.compoundValue();
}

/** The chunk at its new DataVersion and place, its palette states renamed. */
function restamp(root: NbtCompound, how: { dx: number; dz: number; from: number; to: number }): NbtCompound {
  const v = new Map(root.v);
  v.set("DataVersion", nbt.int(how.to));
  const x = v.get("xPos") as { v: number },
    z = v.get("zPos") as { v: number };
  v.set("xPos", nbt.int(x.v + how.dx));
  v.set("zPos", nbt.int(z.v + how.dz));
  const sections = v.get("sections");
  if (sections?.t === TAG.List)
    v.set(
      "sections",
      nbt.list(
        TAG.Compound,
        sections.v.map((s) => {
          const sec = new Map((s as NbtCompound).v);
          const bs = sec.get("block_states");
          if (bs?.t !== TAG.Compound) return { t: TAG.Compound, v: sec } as NbtValue;
          const states = new Map(bs.v);
          const palette = states.get("palette") as unknown as { v: NbtCompound[] };
          states.set(
            "palette",
            nbt.list(
              TAG.Compound,
              palette.v.map((e) => renamed(e, how.from, how.to)),
            ),
          );
          sec.set("block_states", { t: TAG.Compound, v: states });
          return { t: TAG.Compound, v: sec } as NbtValue;
        }),
      ),
    );
  const entities = v.get("block_entities");
  if (entities?.t === TAG.List)
    v.set(
      "block_entities",
      nbt.list(
        TAG.Compound,
        entities.v.map((e) => {
          const m = new Map((e as NbtCompound).v);
          m.set("x", nbt.int((m.get("x") as { v: number }).v + how.dx * 16));
          m.set("z", nbt.int((m.get("z") as { v: number }).v + how.dz * 16));
          return { t: TAG.Compound, v: m } as NbtValue;
        }),
      ),
    );
  return { t: TAG.Compound, v };
}

function renamed(entry: NbtCompound, from: number, to: number): NbtCompound {
  const name = (entry.v.get("Name") as { v: string }).v;
  const p = entry.v.get("Properties");
  const props: Record<string, string> = {};
  if (p?.t === TAG.Compound) for (const [k, val] of p.v) props[k] = (val as { v: string }).v;
  const up = upgradeState(formatState(name, props), from, to).state;
  if (up === formatState(name, props)) return entry;
  const parsed = parseStateSyntax(up);
  if (!parsed.ok) return entry;
  const keys = [...parsed.value.properties].sort(([a], [b]) => (a < b ? -1 : 1));
  return nbt.compound(
    keys.length === 0
      ? [["Name", nbt.string(parsed.value.id)]]
      : [
          ["Name", nbt.string(parsed.value.id)],
          ["Properties", nbt.compound(keys.map(([k, val]) => [k, nbt.string(val)]))],
        ],
  );
}
