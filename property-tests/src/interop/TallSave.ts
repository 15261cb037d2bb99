import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { deflateSync, gzipSync, inflateSync, crc32 } from "node:zlib";
import { NbtReader, TAG, encodeNbt, nbt, type NbtCompound, type NbtValue } from "@mcb/nbt";
import { fixtureRegion } from "./RealSave.js";

/**
 * A data pack as a zip file (stored entries, what any zip tool may write), from path → text.
 */
export function zipOf(files: Readonly<Record<string, string>>): Buffer {
  const local: Buffer[] = [],
    central: Buffer[] = [];
  let offset = 0;
  for (const [name, text] of Object.entries(files)) {
    const data = Buffer.from(text, "utf8"),
      fname = Buffer.from(name, "utf8");
    const crc = crc32(data);
    const head = Buffer.alloc(30);
    head.writeUInt32LE(0x04034b50, 0);
    head.writeUInt16LE(20, 4);
    head.writeUInt32LE(crc, 14);
    head.writeUInt32LE(data.length, 18);
    head.writeUInt32LE(data.length, 22);
    head.writeUInt16LE(fname.length, 26);
    const dir = Buffer.alloc(46);
    dir.writeUInt32LE(0x02014b50, 0);
    dir.writeUInt16LE(20, 4);
    dir.writeUInt16LE(20, 6);
    dir.writeUInt32LE(crc, 16);
    dir.writeUInt32LE(data.length, 20);
    dir.writeUInt32LE(data.length, 24);
    dir.writeUInt16LE(fname.length, 28);
    dir.writeUInt32LE(offset, 42);
    local.push(head, fname, data);
    central.push(dir, fname);
    offset += head.length + fname.length + data.length;
  }
  const size = central.reduce((n, b) => n + b.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Object.keys(files).length, 8);
  end.writeUInt16LE(Object.keys(files).length, 10);
  end.writeUInt32LE(size, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...local, ...central, end]);
}

/** The overworld dimension type of the Caves & Cliffs preview pack (1.17): y −64 to 319. */
export const CAVES_AND_CLIFFS_OVERWORLD = {
  ultrawarm: false,
  natural: true,
  piglin_safe: false,
  respawn_anchor_works: false,
  bed_works: true,
  has_raids: true,
  has_skylight: true,
  has_ceiling: false,
  coordinate_scale: 1,
  ambient_light: 0,
  logical_height: 384,
  infiniburn: "minecraft:infiniburn_overworld",
  min_y: -64,
  height: 384,
};

function read(bytes: Uint8Array): NbtCompound {
  const r = new NbtReader(bytes);
  r.root();
  return r.compoundValue();
}

/** Every chunk of a region file as [index, root], in index order (zlib chunks only, as the fixtures hold). */
function chunksOf(path: string): Map<number, NbtCompound> {
  const file = readFileSync(path);
  const out = new Map<number, NbtCompound>();
  for (let i = 0; i < 1024; i++) {
    const e = file.readUInt32BE(i * 4);
    if (e === 0) continue;
    const at = (e >>> 8) * 4096;
    out.set(i, read(inflateSync(file.subarray(at + 5, at + 4 + file.readUInt32BE(at)))));
  }
  return out;
}

/**
 * A 1.17.1 world made with the Caves & Cliffs preview pack, from the game's own chunks: the
 * 1.17.1 fixture region (prismarine-provider-anvil, MIT; `Level` layout, sections 0..15) with,
 * below y 0, the sections −4..−1 of the same chunks of the 1.18.2 fixture (deepslate, ores,
 * bedrock, lava: what the pack generated there), put in the 1.17 form (`Palette`, `BlockStates`).
 * level.dat enables `file/CavesAndCliffsPreview.zip`, whose dimension type spans −64..319. No
 * public 1.17 preview-pack save with a clear licence is within CI's reach, so the two game-written
 * halves are joined here.
 */
export function cavesAndCliffsSave(dir: string): { save: string; chunks: readonly [number, number][] } {
  mkdirSync(join(dir, "region"), { recursive: true });
  mkdirSync(join(dir, "datapacks"), { recursive: true });
  const upper = chunksOf(fixtureRegion("1.17.1").path),
    lower = chunksOf(fixtureRegion("1.18.2").path);
  const joined: [number, NbtCompound][] = [];
  const done: [number, number][] = [];
  for (const [i, root] of upper) {
    const below = lower.get(i);
    const level = root.v.get("Level") as NbtCompound;
    if (below === undefined || (level.v.get("Status") as { v: string }).v !== "full") continue;
    const listOf = (c: NbtCompound, key: string): NbtCompound[] => {
      const v = c.v.get(key);
      return v?.t === TAG.List ? (v.v as NbtCompound[]) : [];
    };
    const yOf = (s: NbtCompound): number => (s.v.get("Y") as { v: number }).v;
    const deep = listOf(below, "sections").filter((s) => yOf(s) < 0 && s.v.has("block_states"));
    const sections = [...listOf(level, "Sections").filter((s) => yOf(s) >= 0), ...deep.map(legacySection)];
    const l = new Map(level.v);
    l.set("Sections", nbt.list(TAG.Compound, sections));
    joined.push([i, { t: TAG.Compound, v: new Map([...root.v, ["Level", { t: TAG.Compound, v: l } as NbtValue]]) }]);
    done.push([i & 31, i >> 5]);
  }
  writeRegion(join(dir, "region", "r.0.0.mca"), joined);
  writeFileSync(
    join(dir, "datapacks", "CavesAndCliffsPreview.zip"),
    zipOf({
      "pack.mcmeta": JSON.stringify({ pack: { pack_format: 7, description: "Caves & Cliffs Preview" } }),
      "data/minecraft/dimension_type/overworld.json": JSON.stringify(CAVES_AND_CLIFFS_OVERWORLD),
    }),
  );
  const overworld = nbt.compound([
    ["type", nbt.string("minecraft:overworld")],
    ["generator", nbt.compound([["type", nbt.string("minecraft:noise")]])],
  ]);
  const data = nbt.compound([
    ["DataVersion", nbt.int(2730)],
    [
      "Version",
      nbt.compound([
        ["Id", nbt.int(2730)],
        ["Name", nbt.string("1.17.1")],
        ["Snapshot", nbt.byte(0)],
      ]),
    ],
    ["LevelName", nbt.string("Caves & Cliffs preview")],
    ["version", nbt.int(19133)],
    [
      "DataPacks",
      nbt.compound([
        ["Enabled", nbt.list(TAG.String, [nbt.string("vanilla"), nbt.string("file/CavesAndCliffsPreview.zip")])],
        ["Disabled", nbt.list(TAG.String, [])],
      ]),
    ],
    [
      "WorldGenSettings",
      nbt.compound([
        ["seed", nbt.long(0n)],
        ["dimensions", nbt.compound([["minecraft:overworld", overworld]])],
      ]),
    ],
  ]);
  writeFileSync(join(dir, "level.dat"), gzipSync(encodeNbt("", nbt.compound([["Data", data]]))));
  return { save: dir, chunks: done };
}

/** A 1.18 section (`block_states`) in the 1.17 form: `Palette` and `BlockStates` (same padded packing, 4+ bits). */
function legacySection(s: NbtCompound): NbtCompound {
  const bs = s.v.get("block_states") as NbtCompound;
  const palette = bs.v.get("palette") as { v: NbtCompound[] } & NbtValue;
  const data = bs.v.get("data");
  const states: NbtValue = data !== undefined ? data : { t: TAG.LongArray, v: new BigInt64Array(256) }; // one state: 4-bit zeros
  return nbt.compound([
    ["Y", s.v.get("Y")!],
    ["Palette", palette],
    ["BlockStates", states],
  ]);
}

function writeRegion(path: string, chunks: readonly [number, NbtCompound][]): void {
  const parts: Buffer[] = [Buffer.alloc(8192)];
  let sector = 2;
  for (const [i, root] of chunks) {
    const body = deflateSync(encodeNbt("", root));
    const record = Buffer.alloc(Math.ceil((5 + body.length) / 4096) * 4096);
    record.writeUInt32BE(body.length + 1, 0);
    record[4] = 2;
    body.copy(record, 5);
    parts[0]!.writeUInt32BE(((sector << 8) | (record.length / 4096)) >>> 0, i * 4);
    parts.push(record);
    sector += record.length / 4096;
  }
  writeFileSync(path, Buffer.concat(parts));
}
