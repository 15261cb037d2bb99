import { createHash } from "node:crypto";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { Anvil as prismarineAnvil } from "prismarine-provider-anvil";
import { Vec3 } from "vec3";
import { AnvilWorld, RegionFile, decodeChunk } from "@mcb/adapter-anvil";
import { blockIdOf, formatState, legacyState } from "@mcb/blocks";
import { encodeNbt, nbt } from "@mcb/nbt";
import { upgradeState } from "@mcb/blocks";
import { FIXTURES, amulet, sharedRegistry, stdlibChunks } from "../src/index.js";

/**
 * Region files the game saved, from 1.8.9 to 1.21.1: the test fixtures of
 * prismarine-provider-anvil 2.13.0 (MIT; `test/fixtures/<version>/r.X.Z.mca`, a devDependency, read
 * where npm installs it). Each is read through mcb as a person's save of that version (read-only,
 * blocks upgraded to 26.2) and compared block for block with an independent reader: the Python
 * standard library decoder (`python/stdlib_region.py`, every version), prismarine-provider-anvil
 * (JavaScript, every version) and amulet-core's raw reader (the 1.18+ layout).
 */
const registry = sharedRegistry();
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

interface Fixture {
  readonly version: string;
  readonly file: string;
  /** level.dat's DataVersion (null: 1.8.9 has none). */
  readonly dataVersion: number | null;
  readonly layout: "level_numeric" | "level_palette" | "sections";
}

const CASES: readonly Fixture[] = [
  { version: "1.8.9", file: "r.-1.0.mca", dataVersion: null, layout: "level_numeric" },
  { version: "1.12.2", file: "r.0.-1.mca", dataVersion: 1343, layout: "level_numeric" },
  { version: "1.13.2", file: "r.-1.-1.mca", dataVersion: 1631, layout: "level_palette" },
  { version: "1.14.4", file: "r.0.-1.mca", dataVersion: 1976, layout: "level_palette" },
  { version: "1.16", file: "r.0.-1.mca", dataVersion: 2566, layout: "level_palette" },
  { version: "1.17.1", file: "r.0.0.mca", dataVersion: 2730, layout: "level_palette" },
  { version: "1.18.2", file: "r.0.0.mca", dataVersion: 2975, layout: "sections" },
  { version: "1.19.4", file: "r.0.0.mca", dataVersion: 3337, layout: "sections" },
  { version: "1.20.6", file: "r.0.0.mca", dataVersion: 3839, layout: "sections" },
  { version: "1.21.1", file: "r.0.0.mca", dataVersion: 3955, layout: "sections" },
];

/** A save around a fixture region: level.dat of that version (DataVersion, Version.Name), the region in `region/`. */
function saveOf(f: Fixture): { dir: string; region: string; rx: number; rz: number } {
  const dir = join(mkdtempSync(join(tmpdir(), "mcb-real-")), "save");
  dirs.push(join(dir, ".."));
  mkdirSync(join(dir, "region"), { recursive: true });
  copyFileSync(join(FIXTURES, f.version, f.file), join(dir, "region", f.file));
  const data =
    f.dataVersion === null
      ? []
      : ([
          ["DataVersion", nbt.int(f.dataVersion)],
          [
            "Version",
            nbt.compound([
              ["Id", nbt.int(f.dataVersion)],
              ["Name", nbt.string(f.version)],
            ]),
          ],
        ] as const);
  writeFileSync(join(dir, "level.dat"), gzipSync(encodeNbt("", nbt.compound([["Data", nbt.compound([["LevelName", nbt.string(f.version)], ...data])]]))));
  const [, rx, rz] = /r\.(-?\d+)\.(-?\d+)\.mca/.exec(f.file)!.map(Number) as [number, number, number];
  return { dir, region: join(dir, "region", f.file), rx, rz };
}

const canonical = (state: string): string => {
  const r = registry.resolveState(state);
  return r.ok ? r.value.canonical : state;
};

/** Blocks whose 1.12 state the game's flattening fixes from neighbours or the block entity: compared by kind only. */
const FIXED_NUMERIC = new Map<number, RegExp>([
  [2, /^minecraft:grass_block/],
  [3, /^minecraft:(dirt|podzol|coarse_dirt)/],
  [110, /^minecraft:mycelium/],
  [64, /_door\[/],
  [71, /_door\[/],
  [193, /_door\[/],
  [194, /_door\[/],
  [195, /_door\[/],
  [196, /_door\[/],
  [197, /_door\[/],
  [175, /\[half=(lower|upper)\]$/],
  [26, /_bed\[/],
  [176, /_banner\[/],
  [177, /_wall_banner\[/],
  [144, /(_skull|_head)\b/],
  [140, /^minecraft:(flower_pot|potted_)/],
  [25, /^minecraft:note_block/],
]);

/** What a raw state of the stdlib reader is in 26.2 (upgraded as the game's renames go; numeric ids by the flattening table). */
function expected(raw: string, f: Fixture): { state: string; kind?: RegExp } {
  const m = /^numeric:(\d+):(\d+)$/.exec(raw);
  if (m === null) return { state: canonical(upgradeState(raw, f.dataVersion ?? 0, registry.dataVersion).state) };
  const id = Number(m[1]),
    meta = Number(m[2]);
  const flat = legacyState(id, meta) ?? `mcb_legacy:block_${id}_${meta}`;
  const state = canonical(upgradeState(flat, 1519, registry.dataVersion).state);
  const kind = FIXED_NUMERIC.get(id);
  return kind === undefined ? { state } : { state, kind };
}

/** A state with an int property counted from 1 (a repeater's delay …). */
function fromOne(state: string): boolean {
  return registry.blockTypes.get(blockIdOf(state))?.properties.some((p) => /^\d+$/.test(p.values[0]!) && p.values[0] !== "0") ?? false;
}

const sha = (p: string) => createHash("sha256").update(readFileSync(p)).digest("hex");

describe.each(CASES)("a real $version save (prismarine-provider-anvil's fixture, saved by the game)", (f) => {
  it(
    `reads read-only as ${f.version}: every block of its full chunks equals the stdlib reader's and prismarine-provider-anvil's${f.layout === "sections" ? " and amulet-core's" : ""}, upgraded to 26.2; writes are refused and nothing changes`,
    { timeout: 180_000 },
    async () => {
      const save = saveOf(f);
      const before = sha(save.region);
      const w = await AnvilWorld.open({ dir: save.dir, idleSaveMs: 0 });
      try {
        expect(w.version.access).toMatchObject({
          mode: "read",
          reason: "older",
          message: expect.stringContaining(f.dataVersion === null ? "older than 1.9" : `Minecraft ${f.version} (DataVersion ${f.dataVersion})`),
        });
        const info = await w.info();
        const tall = f.layout === "sections";
        expect([info.minY, info.maxY, info.savedBy?.release]).toEqual([
          tall ? -64 : 0,
          tall ? 319 : 255,
          f.dataVersion === null ? expect.any(String) : f.version,
        ]);
        expect(info.readOnly).toMatchObject({ code: "version_mismatch", reason: "older" });

        // The full chunks (the game finished them), three spread over the region.
        const region = RegionFile.open(save.region, save.rx, save.rz, false, true)!;
        const full = region.chunks().filter((c) => {
          const s = region.read(c.x, c.z)!;
          return decodeChunk(s.nbt, c.x, c.z, s.compression, { dataVersion: registry.dataVersion, maxDataVersion: registry.dataVersion }, f.file).full;
        });
        region.close();
        expect(full.length).toBeGreaterThan(0);
        const sample = [full[0]!, full[Math.floor(full.length / 2)]!, full.at(-1)!].filter((c, i, a) => a.findIndex((d) => d.x === c.x && d.z === c.z) === i);
        const theirs = await stdlibChunks(
          join(save.dir, "region"),
          sample.map((c) => [c.x, c.z] as const),
        );
        let compared = 0,
          fixedKinds = 0;
        const mismatches: string[] = [];
        for (const c of sample) {
          const chunk = theirs[`${c.x},${c.z}`]!;
          expect(chunk.layout).toBe(f.layout);
          for (let y = info.minY; y <= info.maxY; y += 16) {
            const ours = await w.read({ minX: c.x * 16, minY: y, minZ: c.z * 16, maxX: c.x * 16 + 15, maxY: y + 15, maxZ: c.z * 16 + 15 });
            const section = chunk.sections[String(y >> 4)];
            for (let i = 0; i < 4096; i++) {
              const mine = ours.palette[ours.states[i]!]!;
              const want = section === undefined ? { state: "minecraft:air" } : expected(section.palette[section.indices[i]!]!, f);
              const same = want.kind === undefined ? mine === want.state : want.kind.test(mine);
              if (want.kind !== undefined) fixedKinds++;
              if (!same && mismatches.length < 5)
                mismatches.push(`${c.x * 16 + (i & 15)} ${y + (i >> 8)} ${c.z * 16 + ((i >> 4) & 15)}: ours ${mine}, theirs ${want.state}`);
              compared++;
            }
          }
        }
        expect(mismatches).toEqual([]);
        expect(compared).toBe(sample.length * (info.maxY - info.minY + 1) * 256);
        if (f.layout === "level_numeric") expect(fixedKinds).toBeGreaterThan(0); // grass, at least, is fixed from its neighbour

        // prismarine-provider-anvil (prismarine-chunk): one chunk, every block. It numbers an int
        // property counted from 1 (delay, pickles, layers, distance …) from 0 in the Level layout of
        // 1.13–1.17 (its bug; the stdlib reader above agrees with ours): those blocks compare by id.
        const Peer = prismarineAnvil(f.version);
        const peer = new Peer(join(save.dir, "region"));
        const [c0] = sample;
        const column = await peer.load(c0!.x, c0!.z);
        const peerMismatches: string[] = [];
        for (let y = info.minY; y <= info.maxY; y += 16) {
          const ours = await w.read({ minX: c0!.x * 16, minY: y, minZ: c0!.z * 16, maxX: c0!.x * 16 + 15, maxY: y + 15, maxZ: c0!.z * 16 + 15 });
          for (let i = 0; i < 4096; i++) {
            const b = column.getBlock(new Vec3(i & 15, y + (i >> 8), (i >> 4) & 15));
            const raw =
              f.layout === "level_numeric"
                ? `numeric:${b.type}:${b.metadata}`
                : formatState(
                    `minecraft:${b.name}`,
                    Object.fromEntries(Object.entries(b.getProperties() as Record<string, unknown>).map(([k, v]) => [k, String(v)])),
                  );
            const want = expected(raw, f);
            const mine = ours.palette[ours.states[i]!]!;
            const byId = f.layout === "level_palette" && fromOne(mine);
            const same = want.kind !== undefined ? want.kind.test(mine) : byId ? blockIdOf(mine) === blockIdOf(want.state) : mine === want.state;
            if (!same && peerMismatches.length < 5) peerMismatches.push(`${i}: ours ${mine}, prismarine ${want.state}`);
          }
        }
        expect(peerMismatches).toEqual([]);

        // amulet-core's own region reader, NBT and long-array decoder (no translation): 2,000 positions.
        if (f.layout === "sections") {
          const positions: [number, number, number][] = [];
          for (let k = 0; k < 2000; k++) {
            const c = sample[k % sample.length]!;
            positions.push([c.x * 16 + ((k * 7) & 15), -64 + ((k * 37) % 384), c.z * 16 + ((k * 11) & 15)]);
          }
          const raw = await amulet<{ states: string[] }>("raw", save.dir, positions);
          const diff = positions.filter(([x, y, z], k) => w.stateAt(x, y, z) !== expected(raw.states[k]!, f).state);
          expect(diff).toEqual([]);
        }

        // Read-only: a write is refused before anything is written, and the file is as it was.
        const [x, z] = [c0!.x * 16, c0!.z * 16];
        await expect(
          w.compareAndSet({ checks: [], writes: [{ x, y: 100, z, before: w.stateAt(x, 100, z), beforeDigest: null, after: "minecraft:stone" }] }),
        ).rejects.toMatchObject({ sliceRefused: true, code: "version_mismatch" });
      } finally {
        await w.close();
      }
      expect(sha(save.region)).toBe(before);
    },
  );
});

describe("the 1.12 flattening fixes (neighbours and block entities)", () => {
  it("a door's halves, a tall plant's upper half, snowy grass, a bed's colour and a banner's come out as the game's upgrade makes them", async () => {
    const blocks = new Uint8Array(4096),
      data = new Uint8Array(2048);
    const set = (x: number, y: number, z: number, id: number, meta: number) => {
      const i = (y << 8) | (z << 4) | x;
      blocks[i] = id;
      data[i >> 1] = i & 1 ? (data[i >> 1]! & 0x0f) | (meta << 4) : (data[i >> 1]! & 0xf0) | meta;
    };
    set(0, 1, 0, 64, 3 | 4); // oak door, lower: facing north (3), open (4)
    set(0, 2, 0, 64, 8 | 1); // upper: hinge right (1)
    set(1, 1, 0, 175, 4); // rose bush, lower
    set(1, 2, 0, 175, 8); // upper (its kind is the lower's)
    set(2, 1, 0, 2, 0); // grass under snow
    set(2, 2, 0, 78, 0);
    set(3, 1, 0, 26, 0); // bed foot, facing south; colour 11 (blue) from its block entity
    set(4, 1, 0, 176, 0); // standing banner; Base 1 (red dye) → red
    const te = (x: number, y: number, z: number, id: string, extra: [string, ReturnType<typeof nbt.int>][]) =>
      nbt.compound([["id", nbt.string(id)], ["x", nbt.int(x)], ["y", nbt.int(y)], ["z", nbt.int(z)], ...extra]);
    const level = nbt.compound([
      ["xPos", nbt.int(0)],
      ["zPos", nbt.int(0)],
      ["TerrainPopulated", nbt.byte(1)],
      [
        "Sections",
        nbt.list(10, [
          nbt.compound([
            ["Y", nbt.byte(0)],
            ["Blocks", nbt.byteArray(blocks)],
            ["Data", nbt.byteArray(data)],
          ]),
        ]),
      ],
      ["TileEntities", nbt.list(10, [te(3, 1, 0, "minecraft:bed", [["color", nbt.int(11)]]), te(4, 1, 0, "minecraft:banner", [["Base", nbt.int(1)]])])],
    ]);
    const dir = join(mkdtempSync(join(tmpdir(), "mcb-flat12-")), "save");
    dirs.push(join(dir, ".."));
    mkdirSync(join(dir, "region"), { recursive: true });
    writeFileSync(join(dir, "level.dat"), gzipSync(encodeNbt("", nbt.compound([["Data", nbt.compound([["DataVersion", nbt.int(1343)]])]]))));
    const r = RegionFile.open(join(dir, "region", "r.0.0.mca"), 0, 0, true)!;
    r.write([
      {
        x: 0,
        z: 0,
        nbt: encodeNbt(
          "",
          nbt.compound([
            ["DataVersion", nbt.int(1343)],
            ["Level", level],
          ]),
        ),
        compression: 2,
      },
    ]);
    r.close();
    const w = await AnvilWorld.open({ dir });
    try {
      expect(w.stateAt(0, 1, 0)).toBe("minecraft:oak_door[facing=north,half=lower,hinge=right,open=true,powered=false]");
      expect(w.stateAt(0, 2, 0)).toBe("minecraft:oak_door[facing=north,half=upper,hinge=right,open=true,powered=false]");
      expect(w.stateAt(1, 2, 0)).toBe("minecraft:rose_bush[half=upper]");
      expect(w.stateAt(2, 1, 0)).toBe("minecraft:grass_block[snowy=true]");
      expect(w.stateAt(3, 1, 0)).toBe("minecraft:blue_bed[facing=south,occupied=false,part=foot]");
      expect(w.stateAt(4, 1, 0)).toBe("minecraft:red_banner[rotation=0]");
      expect(w.digestAt(3, 1, 0)).toBeNull(); // 26.2 beds have no block entity: the upgrade drops it
    } finally {
      await w.close();
    }
  });
});
