import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { TAG, nbt, type NbtCompound } from "@mcb/nbt";
import { AnvilWorld } from "../src/AnvilWorld.js";
import type { AnvilWorldOptions } from "../src/AnvilWorldOptions.js";
import { COMPRESSION, RegionFile } from "../src/RegionFile.js";
import { decodeNbt, gameChunk, personSave, readNbtFile, regionPath, tempDir } from "./support.js";

const base = { idleSaveMs: 0 };
const open = (o: Partial<AnvilWorldOptions> & { dir: string }) => AnvilWorld.open({ ...base, ...o });
const sha = (p: string) => createHash("sha256").update(readFileSync(p)).digest("hex");
const write = (x: number, y: number, z: number, before: string, after: string) => ({ x, y, z, before, beforeDigest: null, after });

/** Plain JSON of an NBT value, for golden comparisons. */
function plain(v: unknown): unknown {
  const t = v as { t: number; v: unknown };
  if (t.t === TAG.Compound) return Object.fromEntries([...(t.v as Map<string, unknown>)].map(([k, x]) => [k, plain(x)]));
  if (t.t === TAG.List) return (t.v as unknown[]).map(plain);
  if (t.t === TAG.Long) return String(t.v);
  if (t.t === TAG.LongArray) return `long[${(t.v as BigInt64Array).length}]`;
  if (t.t === TAG.IntArray) return [...(t.v as Int32Array)];
  return t.v;
}

describe("AnvilWorld: mcb's own world", () => {
  it("a new block entity carries the game's type: a spawner's is minecraft:mob_spawner, a shelf's minecraft:shelf, a bee nest's minecraft:beehive", async () => {
    const dir = join(tempDir(), "world");
    const w = await open({ dir, flatGround: true });
    const states = [
      "minecraft:spawner",
      "minecraft:oak_shelf[facing=north,powered=false,side_chain=unconnected,waterlogged=false]",
      "minecraft:bee_nest[facing=north,honey_level=0]",
      "minecraft:potent_sulfur[potent_sulfur_state=dry]",
    ];
    await w.compareAndSet({ checks: [], writes: states.map((s, i) => write(i, 64, 0, "minecraft:air", s)) });
    await w.close();
    const r = RegionFile.open(regionPath(dir), 0, 0, false)!;
    const chunk = plain(decodeNbt(r.read(0, 0)!.nbt)) as { block_entities: { id: string; x: number }[] };
    r.close();
    expect(chunk.block_entities.map((e) => [e.x, e.id])).toEqual([
      [0, "minecraft:mob_spawner"],
      [1, "minecraft:shelf"],
      [2, "minecraft:beehive"],
      [3, "minecraft:potent_sulfur"],
    ]);
  });

  it("golden: a new save's level.dat, world_gen_settings.dat and first chunk carry exactly the documented fields", async () => {
    const dir = join(tempDir(), "world");
    const w = await open({ dir, flatGround: true });
    await w.compareAndSet({ checks: [], writes: [write(0, 64, 0, "minecraft:air", "minecraft:stone_bricks")] });
    await w.close();
    expect(plain(readNbtFile(join(dir, "level.dat")))).toEqual({
      Data: {
        DataVersion: 4903,
        version: 19133,
        Version: { Id: 4903, Name: "26.2", Series: "main", Snapshot: 0 },
        LevelName: "mcb world",
        GameType: 1,
        allowCommands: 1,
        hardcore: 0,
        Difficulty: 2,
        initialized: 1,
        LastPlayed: "0",
        DataPacks: { Enabled: ["vanilla"], Disabled: [] },
        spawn: { dimension: "minecraft:overworld", pos: [0, 64, 0], yaw: 0, pitch: 0 },
      },
    });
    const gen = plain(readNbtFile(join(dir, "data", "minecraft", "world_gen_settings.dat"))) as { data: { dimensions: Record<string, unknown> } };
    expect(gen.data.dimensions["minecraft:overworld"]).toEqual({
      type: "minecraft:overworld",
      generator: {
        type: "minecraft:flat",
        settings: {
          biome: "minecraft:plains",
          features: 0,
          lakes: 0,
          layers: [
            { block: "minecraft:bedrock", height: 1 },
            { block: "minecraft:stone", height: 123 },
            { block: "minecraft:dirt", height: 3 },
            { block: "minecraft:grass_block", height: 1 },
          ],
          structure_overrides: [],
        },
      },
    });
    const r = RegionFile.open(regionPath(dir), 0, 0, false)!;
    const stored = r.read(0, 0)!;
    r.close();
    expect(stored.compression).toBe(COMPRESSION.zlib);
    const chunk = plain(decodeNbt(stored.nbt)) as Record<string, unknown>;
    expect(Object.keys(chunk)).toEqual([
      "DataVersion",
      "xPos",
      "yPos",
      "zPos",
      "Status",
      "LastUpdate",
      "InhabitedTime",
      "isLightOn",
      "sections",
      "block_entities",
      "block_ticks",
      "fluid_ticks",
      "PostProcessing",
      "structures",
      "Heightmaps",
    ]);
    expect(chunk).toMatchObject({
      DataVersion: 4903,
      xPos: 0,
      yPos: -4,
      zPos: 0,
      Status: "minecraft:full",
      isLightOn: 0,
      block_entities: [],
      structures: { References: {}, starts: {} },
    });
    const sections = chunk.sections as {
      Y: number;
      block_states: { palette: { Name: string; Properties?: Record<string, string> }[]; data?: string };
      biomes: unknown;
    }[];
    expect(sections.map((s) => s.Y)).toEqual(Array.from({ length: 24 }, (_, i) => i - 4));
    expect(sections[0]).toEqual({
      Y: -4,
      biomes: { palette: ["minecraft:plains"] },
      block_states: { palette: [{ Name: "minecraft:bedrock" }, { Name: "minecraft:stone" }], data: "long[256]" },
    });
    expect(sections[7]!.block_states.palette).toEqual([
      { Name: "minecraft:stone" },
      { Name: "minecraft:dirt" },
      { Name: "minecraft:grass_block", Properties: { snowy: "false" } },
    ]);
    expect(sections[8]!.block_states).toEqual({ palette: [{ Name: "minecraft:air" }, { Name: "minecraft:stone_bricks" }], data: "long[256]" });
    expect(sections[9]!.block_states).toEqual({ palette: [{ Name: "minecraft:air" }] });
    expect(Object.keys(chunk.Heightmaps as object)).toEqual(["MOTION_BLOCKING", "MOTION_BLOCKING_NO_LEAVES", "OCEAN_FLOOR", "WORLD_SURFACE"]);
  });

  it("reads the flat ground where nothing was built, without writing it", async () => {
    const dir = join(tempDir(), "world");
    const w = await open({ dir, flatGround: true });
    const col = await w.read({ minX: 100, minY: -65, minZ: 100, maxX: 100, maxY: 65, maxZ: 100 });
    const states = [...col.states].map((i) => col.palette[i]);
    expect(states[0]).toBe("minecraft:void_air");
    expect(states[1]).toBe("minecraft:bedrock");
    expect(states.slice(2, 125).every((s) => s === "minecraft:stone")).toBe(true);
    expect(states.slice(125, 128)).toEqual(["minecraft:dirt", "minecraft:dirt", "minecraft:dirt"]);
    expect(states.slice(128)).toEqual(["minecraft:grass_block[snowy=false]", "minecraft:air", "minecraft:air"]);
    await w.close();
    expect(() => readFileSync(regionPath(dir, 3, 3))).toThrow();
  });
});

describe("AnvilWorld: a person's save", () => {
  it("keeps every tag it does not know, the chunk's compression and its (patch) DataVersion; sets heightmaps and the light flag, also of stored neighbours", async () => {
    const custom = nbt.compound([
      ["owner", nbt.string("someone")],
      ["ticks", { t: TAG.LongArray, v: BigInt64Array.of(1n, -2n) }],
    ]);
    const save = personSave(4790, [
      {
        x: 0,
        z: 0,
        root: gameChunk(
          0,
          0,
          4790,
          [
            ["Paper.custom", custom],
            ["InhabitedTime", nbt.long(77n)],
          ],
          [["starlight.blight_state", nbt.int(5)]],
        ),
        compression: COMPRESSION.gzip,
      },
      { x: 1, z: 0, root: gameChunk(1, 0, 4790) },
      { x: 5, z: 5, root: gameChunk(5, 5, 4790) },
    ]);
    const w = await open({ dir: save });
    expect(w.stateAt(3, -1, 3)).toBe("minecraft:stone");
    const r = await w.compareAndSet({ checks: [], writes: [write(3, 5, 3, "minecraft:air", "minecraft:oak_planks")] });
    expect(r.written).toBe(1);
    await w.close();
    const region = RegionFile.open(regionPath(save), 0, 0, false)!;
    const c0 = region.read(0, 0)!;
    const root = decodeNbt(c0.nbt);
    const c1 = decodeNbt(region.read(1, 0)!.nbt),
      c5 = decodeNbt(region.read(5, 5)!.nbt);
    region.close();
    expect(c0.compression).toBe(COMPRESSION.gzip);
    expect(plain(root.v.get("Paper.custom"))).toEqual({ owner: "someone", ticks: "long[2]" });
    expect((root.v.get("Paper.custom") as NbtCompound).v.get("ticks")).toEqual({ t: TAG.LongArray, v: BigInt64Array.of(1n, -2n) });
    expect(plain(root.v.get("InhabitedTime"))).toBe("77");
    expect(plain(root.v.get("DataVersion"))).toBe(4790);
    expect(plain(root.v.get("Status"))).toBe("minecraft:full");
    expect(plain(root.v.get("isLightOn"))).toBe(0);
    expect(Object.keys(plain(root.v.get("Heightmaps")) as object)).toHaveLength(4);
    const section0 = (root.v.get("sections") as unknown as { v: NbtCompound[] }).v.find((s) => plain(s.v.get("Y")) === 0)!;
    expect(plain(section0.v.get("starlight.blight_state"))).toBe(5);
    expect(plain(c1.v.get("isLightOn"))).toBe(0); // a neighbour: relit by the game too
    expect(plain(c5.v.get("isLightOn"))).toBe(1); // far away: untouched
  });

  it("an older chunk reads upgraded but is never written; a missing chunk is never generated; nothing is written when refused", async () => {
    const save = personSave(4786, [
      { x: 0, z: 0, root: gameChunk(0, 0, 3600) },
      { x: 1, z: 0, root: gameChunk(1, 0, 4786) },
    ]);
    const w = await open({ dir: save });
    expect(w.stateAt(0, 3, 0)).toBe("minecraft:short_grass"); // grass → short_grass (1.20.3)
    const before = sha(regionPath(save));
    await expect(
      w.compareAndSet({ checks: [], writes: [write(16, 5, 0, "minecraft:air", "minecraft:stone"), write(0, 20, 0, "minecraft:air", "minecraft:stone")] }),
    ).rejects.toMatchObject({
      sliceRefused: true,
      code: "version_mismatch",
      message: expect.stringMatching(
        /chunk 0,0 was saved by Minecraft a version between 1\.20\.2 and 1\.20\.3 \(DataVersion 3600\).*visit the area once in a current Minecraft/,
      ),
    });
    await expect(
      w.compareAndSet({ checks: [], writes: [write(16, 5, 0, "minecraft:air", "minecraft:stone"), write(200, 5, 0, "minecraft:air", "minecraft:stone")] }),
    ).rejects.toMatchObject({
      code: "chunk_missing",
      message: expect.stringMatching(/chunk 12,0 does not exist.*never generates/),
    });
    await expect(w.read({ minX: 200, minY: 0, minZ: 0, maxX: 200, maxY: 0, maxZ: 0 })).rejects.toMatchObject({ chunkNotLoaded: true, chunk: { x: 12, z: 0 } });
    expect(w.stateAt(16, 5, 0)).toBe("minecraft:air");
    await w.close();
    expect(sha(regionPath(save))).toBe(before);
  });

  it("a pre-1.18 chunk (the Level layout) and a chunk newer than the registry are read, never written; damaged section data is a structured error naming the chunk", async () => {
    // A 1.16.5 chunk: palette and padded indices (4 bits: 16 per long), grass_path at y 0 upgrades to dirt_path.
    const indices = new BigInt64Array(256);
    indices[0] = 1n; // block 0 (x 0, y 0, z 0) is palette entry 1
    const level = nbt.compound([
      ["xPos", nbt.int(0)],
      ["zPos", nbt.int(0)],
      ["Status", nbt.string("full")],
      [
        "Sections",
        nbt.list(TAG.Compound, [
          nbt.compound([
            ["Y", nbt.byte(0)],
            [
              "Palette",
              nbt.list(TAG.Compound, [nbt.compound([["Name", nbt.string("minecraft:air")]]), nbt.compound([["Name", nbt.string("minecraft:grass_path")]])]),
            ],
            ["BlockStates", { t: TAG.LongArray, v: indices }],
          ]),
        ]),
      ],
    ]);
    const legacy = nbt.compound([
      ["DataVersion", nbt.int(2586)],
      ["Level", level],
    ]);
    const newer = gameChunk(1, 0, 5023, [], []);
    const s1 = (newer.v.get("sections") as unknown as { v: NbtCompound[] }).v[4]!;
    (s1.v as Map<string, unknown>).set(
      "block_states",
      nbt.compound([
        [
          "palette",
          nbt.list(TAG.Compound, [
            nbt.compound([
              ["Name", nbt.string("minecraft:copper_fungus")],
              ["Properties", nbt.compound([["age", nbt.string("2")]])],
            ]),
          ]),
        ],
      ]),
    );
    const badData = gameChunk(2, 0, 4786);
    const s0 = (badData.v.get("sections") as unknown as { v: NbtCompound[] }).v[4]!;
    (s0.v as Map<string, unknown>).set(
      "block_states",
      nbt.compound([
        ["palette", nbt.list(TAG.Compound, [nbt.compound([["Name", nbt.string("minecraft:stone")]]), nbt.compound([["Name", nbt.string("minecraft:dirt")]])])],
        ["data", { t: TAG.LongArray, v: new BigInt64Array(100) }],
      ]),
    );
    const save = personSave(4786, [
      { x: 0, z: 0, root: legacy },
      { x: 1, z: 0, root: newer },
      { x: 2, z: 0, root: badData },
    ]);
    const before = sha(regionPath(save));
    const w = await open({ dir: save });
    const at = (x: number) => w.read({ minX: x, minY: 0, minZ: 0, maxX: x, maxY: 0, maxZ: 0 });
    const old = await at(0);
    expect(old.palette[old.states[0]!]).toBe("minecraft:dirt_path");
    expect(old.unwritable).toEqual([
      {
        chunk: { x: 0, z: 0 },
        code: "version_mismatch",
        message: expect.stringMatching(/chunk 0,0 was saved by Minecraft 1\.16\.5 \(DataVersion 2586\).*visit the area once/),
        details: { reason: "version_mismatch", chunk: { x: 0, z: 0 }, dataVersion: 2586 },
      },
    ]);
    const ahead = await at(16);
    expect(ahead.palette[ahead.states[0]!]).toBe("minecraft:copper_fungus[age=2]"); // unknown: kept as it is
    expect(ahead.unwritable?.[0]).toMatchObject({
      chunk: { x: 1, z: 0 },
      message: expect.stringMatching(/chunk 1,0 was saved by Minecraft 26\.3 \(DataVersion 5023\), newer than this build writes/),
    });
    for (const x of [0, 16])
      await expect(w.compareAndSet({ checks: [], writes: [write(x, 0, 0, "minecraft:air", "minecraft:stone")] })).rejects.toMatchObject({
        sliceRefused: true,
        code: "version_mismatch",
      });
    await expect(at(32)).rejects.toMatchObject({
      code: "corrupt_chunk",
      details: { chunk: { x: 2, z: 0 } },
      message: expect.stringMatching(/section 0: data has 100 longs, 4-bit indices need 256/),
    });
    await w.close();
    expect(sha(regionPath(save))).toBe(before);
  });

  it("a save held by the game (a lock on session.lock) is busy; while mcb holds it, another opener is busy too", async () => {
    const save = personSave(4786, [{ x: 0, z: 0, root: gameChunk(0, 0, 4786) }]);
    // The game's lock: FileChannel.tryLock is an fcntl lock over the whole file; python's lockf takes the same.
    const game = spawn(
      "python3",
      [
        "-c",
        "import fcntl,sys; f=open(sys.argv[1],'a+b'); fcntl.lockf(f, fcntl.LOCK_EX); print('locked', flush=True); sys.stdin.read()",
        join(save, "session.lock"),
      ],
      { stdio: ["pipe", "pipe", "inherit"] },
    );
    await new Promise<void>((resolve) => game.stdout!.once("data", () => resolve()));
    await expect(open({ dir: save })).rejects.toMatchObject({ code: "busy", message: expect.stringMatching(/open in Minecraft or another program/) });
    game.stdin!.end();
    await new Promise((r) => game.once("exit", r));
    const w = await open({ dir: save });
    expect(w.sessionLockHeld).toBe(true);
    await expect(open({ dir: save })).rejects.toMatchObject({ code: "busy" });
    await w.close();
    const again = await open({ dir: save });
    await again.close();
  });
});

describe("session.lock without python3", () => {
  it("the lock is only checked: sessionLockHeld is false, a save the game holds is still refused", async () => {
    const save = personSave(4786, [{ x: 0, z: 0, root: gameChunk(0, 0, 4786) }]);
    const script = [
      `import { AnvilWorld } from ${JSON.stringify(new URL("../src/index.ts", import.meta.url).pathname.replace(/src\/index\.ts$/, "dist/index.js"))};`,
      `const w = await AnvilWorld.open({ dir: ${JSON.stringify(save)} });`,
      "console.log(JSON.stringify({ held: w.sessionLockHeld }));",
      "await w.close();",
    ].join("\n");
    const { execFileSync } = await import("node:child_process");
    const out = execFileSync(process.execPath, ["--input-type=module", "-e", script], { env: { ...process.env, PATH: "/nonexistent" } }).toString();
    expect(JSON.parse(out)).toEqual({ held: false });
    const game = spawn(
      "python3",
      [
        "-c",
        "import fcntl,sys; f=open(sys.argv[1],'a+b'); fcntl.lockf(f, fcntl.LOCK_EX); print('locked', flush=True); sys.stdin.read()",
        join(save, "session.lock"),
      ],
      { stdio: ["pipe", "pipe", "inherit"] },
    );
    await new Promise<void>((resolve) => game.stdout!.once("data", () => resolve()));
    try {
      expect(() =>
        execFileSync(process.execPath, ["--input-type=module", "-e", script], { env: { ...process.env, PATH: "/nonexistent" }, stdio: "pipe" }),
      ).toThrow(/open in Minecraft or another program/);
    } finally {
      game.stdin!.end();
      await new Promise((r) => game.once("exit", r));
    }
  });
});
