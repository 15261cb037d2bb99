import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { afterEach } from "vitest";
import { NbtReader, TAG, encodeNbt, nbt, type NbtCompound, type NbtValue } from "@mcb/nbt";
import { COMPRESSION, RegionFile, type Compression } from "../src/RegionFile.js";

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

export function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), "mcb-anvil-"));
  dirs.push(d);
  return d;
}

export function readNbtFile(path: string): NbtCompound {
  const raw = readFileSync(path);
  const r = new NbtReader(raw[0] === 0x1f ? gunzipSync(raw) : raw);
  r.root();
  return r.compoundValue();
}

export function decodeNbt(bytes: Uint8Array): NbtCompound {
  const r = new NbtReader(bytes);
  r.root();
  return r.compoundValue();
}

/** A person's save as a game would leave it: level.dat, the 26.1 folders, given chunks. */
export function personSave(dataVersion: number, chunks: { x: number; z: number; root: NbtCompound; compression?: Compression }[]): string {
  const dir = join(tempDir(), "save");
  const region = join(dir, "dimensions", "minecraft", "overworld", "region");
  mkdirSync(region, { recursive: true });
  writeFileSync(
    join(dir, "level.dat"),
    gzipSync(
      encodeNbt(
        "",
        nbt.compound([
          [
            "Data",
            nbt.compound([
              ["DataVersion", nbt.int(dataVersion)],
              ["LevelName", nbt.string("a person's world")],
            ]),
          ],
        ]),
      ),
    ),
  );
  const byRegion = new Map<string, typeof chunks>();
  for (const c of chunks) {
    const key = `${c.x >> 5}.${c.z >> 5}`;
    byRegion.set(key, [...(byRegion.get(key) ?? []), c]);
  }
  for (const [key, list] of byRegion) {
    const [rx, rz] = key.split(".").map(Number) as [number, number];
    const r = RegionFile.open(join(region, `r.${rx}.${rz}.mca`), rx, rz, true)!;
    r.write(list.map((c) => ({ x: c.x, z: c.z, nbt: encodeNbt("", c.root), compression: c.compression ?? COMPRESSION.zlib })));
    r.close();
  }
  return dir;
}

/** A full 1.18+ chunk: stone below y 0, the given extra tags at the root and in section 0. */
export function gameChunk(x: number, z: number, dataVersion: number, extra: [string, NbtValue][] = [], sectionExtra: [string, NbtValue][] = []): NbtCompound {
  const sections: NbtValue[] = [];
  for (let y = -4; y < 20; y++) {
    const block = y < 0 ? "minecraft:stone" : y === 0 && dataVersion < 3698 ? "minecraft:grass" : "minecraft:air";
    const entries: [string, NbtValue][] = [
      ["Y", nbt.byte(y)],
      ["block_states", nbt.compound([["palette", nbt.list(TAG.Compound, [nbt.compound([["Name", nbt.string(block)]])])]])],
      ["biomes", nbt.compound([["palette", nbt.list(TAG.String, [nbt.string("minecraft:plains")])]])],
    ];
    sections.push(nbt.compound(y === 0 ? [...entries, ...sectionExtra] : entries));
  }
  return nbt.compound([
    ["DataVersion", nbt.int(dataVersion)],
    ["xPos", nbt.int(x)],
    ["yPos", nbt.int(-4)],
    ["zPos", nbt.int(z)],
    ["Status", nbt.string("minecraft:full")],
    ["isLightOn", nbt.byte(1)],
    ["sections", nbt.list(TAG.Compound, sections)],
    ["block_entities", nbt.list(TAG.Compound, [])],
    ...extra,
  ]);
}

export function regionPath(save: string, rx = 0, rz = 0): string {
  return join(save, "dimensions", "minecraft", "overworld", "region", `r.${rx}.${rz}.mca`);
}
