import { createHash } from "node:crypto";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { AnvilWorld, RegionFile } from "@mcb/adapter-anvil";
import { NbtReader, TAG, encodeNbt, nbt, type NbtCompound, type NbtValue } from "@mcb/nbt";
import { upgradeState } from "@mcb/blocks";
import { sharedRegistry, stdlibChunks } from "../src/index.js";
import { mcb } from "../src/interop/Cli.js";

/**
 * The versions a person's saves come in, through the `mcb` command line: a save from a newer game
 * (26.3, DataVersion 5023: read-only, its unknown states kept byte for byte, shown as unknown, a
 * build refused before any operation is journalled), an older 1.21.x save (the same, up front), the
 * version a new world is made in (--mc-version), and a region of an old 1.16 map copied into a
 * 26.2 save (schem export from the old save, import into the new one).
 */
const registry = sharedRegistry();
const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
const FIXTURES = join(dirname(createRequire(import.meta.url).resolve("prismarine-provider-anvil/package.json")), "test", "fixtures");

function temp(): string {
  const d = mkdtempSync(join(tmpdir(), "mcb-versions-"));
  dirs.push(d);
  return d;
}

const errorOf = (r: { stderr: string }) =>
  (JSON.parse(r.stderr.trim().split("\n").at(-1)!) as { error: { code: string; message: string; details?: Record<string, unknown> } }).error;
const sha = (p: string) => createHash("sha256").update(readFileSync(p)).digest("hex");

/** The tags of a compound we decoded ourselves, to change in place. */
const tags = (c: NbtCompound): Map<string, NbtValue> => c.v as Map<string, NbtValue>;

function readGz(path: string): NbtCompound {
  const r = new NbtReader(gunzipSync(readFileSync(path)));
  r.root();
  return r.compoundValue();
}

/** A 26.2 save mcb makes (flat ground, the chunks −1..1 around the origin generated), as a person's. */
async function save262(): Promise<string> {
  const dir = join(temp(), "world");
  const w = await AnvilWorld.open({ dir, flatGround: true, idleSaveMs: 0 });
  await w.compareAndSet({
    checks: [],
    writes: [-1, 0, 1].flatMap((cx) =>
      [-1, 0, 1].map((cz) => ({ x: cx * 16 + 8, y: 64, z: cz * 16 + 8, before: "minecraft:air", beforeDigest: null, after: "minecraft:torch" })),
    ),
  });
  await w.close();
  return dir;
}

/** Rewrites a save's level.dat and chunks as another version wrote them; `edit` changes each chunk's NBT. */
function restamp(dir: string, dataVersion: number, name: string, edit: (root: Map<string, NbtValue>, x: number, z: number) => void = () => {}): void {
  const level = readGz(join(dir, "level.dat"));
  const data = level.v.get("Data") as NbtCompound;
  tags(data).set("DataVersion", nbt.int(dataVersion));
  tags(data).set(
    "Version",
    nbt.compound([
      ["Id", nbt.int(dataVersion)],
      ["Name", nbt.string(name)],
      ["Series", nbt.string("main")],
      ["Snapshot", nbt.byte(0)],
    ]),
  );
  writeFileSync(join(dir, "level.dat"), gzipSync(encodeNbt("", level)));
  const path = join(dir, "dimensions", "minecraft", "overworld", "region", "r.0.0.mca");
  const region = RegionFile.open(path, 0, 0, false)!;
  const writes = region.chunks().map((c) => {
    const s = region.read(c.x, c.z)!;
    const r = new NbtReader(s.nbt);
    r.root();
    const root = r.compoundValue();
    tags(root).set("DataVersion", nbt.int(dataVersion));
    edit(tags(root), c.x, c.z);
    return { x: c.x, z: c.z, nbt: encodeNbt("", root), compression: s.compression };
  });
  region.write(writes);
  region.close();
}

describe("saves of every version, through mcb", () => {
  it("a 26.3 save (DataVersion 5023): read-only, a state 26.2 lacks is kept byte for byte and shown as unknown, a build is refused before any operation starts, nothing changes", async () => {
    const save = await save262();
    // 26.3 put a block 26.2 does not have at 0 64 0 (section 4 of chunk 0,0 gets it as its palette).
    restamp(save, 5023, "26.3", (root, x, z) => {
      if (x !== 0 || z !== 0) return;
      const sections = (root.get("sections") as unknown as { v: NbtCompound[] }).v;
      const s = sections.find((c) => (c.v.get("Y") as { v: number }).v === 4)!;
      tags(s).set(
        "block_states",
        nbt.compound([
          [
            "palette",
            nbt.list(TAG.Compound, [
              nbt.compound([["Name", nbt.string("minecraft:air")]]),
              nbt.compound([
                ["Name", nbt.string("minecraft:copper_fungus")],
                ["Properties", nbt.compound([["age", nbt.string("2")]])],
              ]),
            ]),
          ],
          ["data", { t: TAG.LongArray, v: new BigInt64Array(256).fill(0n).map((_, i) => (i === 0 ? 1n : 0n)) }],
        ]),
      );
    });
    const region = join(save, "dimensions", "minecraft", "overworld", "region", "r.0.0.mca");
    const before = [sha(region), sha(join(save, "level.dat"))];
    const state = temp();
    const at = ["--world", `save:${save}`, "--state", state];

    const status = await mcb("status", ...at, "--init");
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toMatch(
      /version Minecraft 26\.3 \(DataVersion 5023\): read-only, its blocks read as 26\.2's \(this save is Minecraft 26\.3 \(DataVersion 5023\), newer than this build writes \(26\.1 and 26\.2\): it is open read-only.*update mcb to edit it\)/,
    );
    const inspect = await mcb("inspect", "0", "64", "0", "1", "64", "0", ...at);
    expect(inspect.stdout).toMatch(/1 minecraft:copper_fungus\[age=2\] {3}\(unknown to this world's blocks version: kept as it is\)/);

    const recipe = join(state, "wall.json");
    writeFileSync(
      recipe,
      JSON.stringify({ version: 1, operations: [{ type: "box", min: { x: 2, y: 64, z: 2 }, max: { x: 3, y: 65, z: 2 }, block: "minecraft:stone_bricks" }] }),
    );
    const build = await mcb("build", recipe, ...at);
    expect(build.code).toBe(1);
    expect(errorOf(build)).toMatchObject({
      code: "version_mismatch",
      message: expect.stringMatching(/Minecraft 26\.3 \(DataVersion 5023\).*update mcb/),
      details: { reason: "read_only_world", why: "newer" },
    });
    expect((await mcb("status", ...at)).stdout).not.toMatch(/ op_/); // no operation was journalled
    const again = await mcb("status", ...at, "--json");
    expect(JSON.parse(again.stdout).recent_operations).toEqual([]);

    expect([sha(region), sha(join(save, "level.dat"))]).toEqual(before);
    const raw = await stdlibChunks(dirname(region), [[0, 0]]);
    const s4 = raw["0,0"]!.sections["4"]!;
    expect(s4.palette[s4.indices[0]!]).toBe("minecraft:copper_fungus[age=2]");
  });

  it("a 1.21.11 save: read-only; a build is refused up front with the exact reason, not after an operation starts", async () => {
    const save = await save262();
    restamp(save, 4671, "1.21.11");
    const state = temp();
    const status = await mcb("status", "--world", `save:${save}`, "--state", state, "--init");
    expect(status.stdout).toMatch(/version Minecraft 1\.21\.11 \(DataVersion 4671\): read-only, its blocks read as 26\.2's/);
    const recipe = join(state, "wall.json");
    writeFileSync(
      recipe,
      JSON.stringify({ version: 1, operations: [{ type: "box", min: { x: 2, y: 64, z: 2 }, max: { x: 4, y: 66, z: 4 }, block: "minecraft:stone_bricks" }] }),
    );
    const build = await mcb("build", recipe, "--world", `save:${save}`, "--state", state);
    expect(build.code).toBe(1);
    expect(errorOf(build)).toMatchObject({
      code: "version_mismatch",
      message: expect.stringMatching(/older than the versions mcb writes \(26\.1 and 26\.2\).*open and save it once in Minecraft 26\.2/),
    });
    expect(JSON.parse((await mcb("status", "--world", `save:${save}`, "--state", state, "--json")).stdout).recent_operations).toEqual([]);
  });

  it("a chest in an old save: schem export brings the chest block and says it left out its contents (an older game's data); the import gives it the game's defaults", async () => {
    const save = join(temp(), "world");
    const w = await AnvilWorld.open({ dir: save, flatGround: true, idleSaveMs: 0 });
    const chest = "minecraft:chest[facing=north,type=single,waterlogged=false]";
    const items = encodeNbt(
      "",
      nbt.compound([
        [
          "Items",
          nbt.list(TAG.Compound, [
            nbt.compound([
              ["Slot", nbt.byte(0)],
              ["Count", nbt.byte(7)],
              ["id", nbt.string("minecraft:diamond")],
            ]),
          ]),
        ],
      ]),
    );
    await w.compareAndSet({ checks: [], writes: [{ x: 1, y: 64, z: 1, before: "minecraft:air", beforeDigest: null, after: chest, afterData: items }] });
    await w.close();
    restamp(save, 4671, "1.21.11");
    const state = temp();
    const file = join(state, "chest.schem");
    const exported = await mcb(
      "schem",
      "export",
      "chest",
      "0",
      "64",
      "0",
      "2",
      "64",
      "2",
      "-o",
      file,
      "--world",
      `save:${save}`,
      "--state",
      state,
      "--init",
      "--json",
    );
    expect(exported.code, exported.stderr).toBe(0);
    const asset = JSON.parse(exported.stdout);
    expect(asset).toMatchObject({ block_entities: 0, notes: [expect.stringMatching(/left out the data of 1 block entity .*Minecraft 1\.21\.11/)] });
    const info = await mcb("schem", "info", file);
    expect(info.stdout).toContain(chest);
    const target = await save262();
    const imported = await mcb("schem", "import", file, "--at", "4,64,4", "--world", `save:${target}`, "--state", temp());
    expect(imported.code, imported.stderr).toBe(0);
    const copy = await AnvilWorld.open({ dir: target });
    try {
      expect(copy.stateAt(5, 64, 5)).toBe(chest);
      expect(copy.digestAt(5, 64, 5)).not.toBeNull(); // a block entity with the game's defaults: an empty chest
    } finally {
      await copy.close();
    }
  });

  it("--mc-version: a new embedded world is made in 26.1 when asked, and keeps it; a save cannot be edited in another version's blocks", async () => {
    const state = temp();
    const recipe = join(state, "wall.json");
    writeFileSync(
      recipe,
      JSON.stringify({ version: 1, operations: [{ type: "box", min: { x: 2, y: 64, z: 2 }, max: { x: 3, y: 65, z: 2 }, block: "minecraft:stone_bricks" }] }),
    );
    expect((await mcb("build", recipe, "--state", state, "--mc-version", "26.1")).code).toBe(0);
    expect(readGz(join(state, "world", "level.dat")).v.get("Data")).toMatchObject({ v: expect.any(Map) });
    expect(((readGz(join(state, "world", "level.dat")).v.get("Data") as NbtCompound).v.get("DataVersion") as { v: number }).v).toBe(4786);
    expect((await mcb("status", "--state", state)).stdout).toMatch(/version Minecraft 26\.1 \(DataVersion 4786\): read and write/);
    const cinnabar = join(state, "cinnabar.json");
    writeFileSync(
      cinnabar,
      JSON.stringify({ version: 1, operations: [{ type: "box", min: { x: 5, y: 64, z: 5 }, max: { x: 5, y: 64, z: 5 }, block: "minecraft:cinnabar" }] }),
    );
    const refused = await mcb("build", cinnabar, "--state", state);
    expect(errorOf(refused)).toMatchObject({ code: "unsupported_block", message: expect.stringContaining("new in Minecraft 26.2") });
    const other = await mcb("status", "--state", state, "--mc-version", "26.2");
    expect(errorOf(other)).toMatchObject({ code: "version_mismatch", message: expect.stringMatching(/Minecraft 26\.1.*leave out --mc-version/) });
  });

  it(
    "an old map's region (1.16, the Level layout) copied into a 26.2 save: schem export from the old save, import into the new one; every block as the old map had it, upgraded",
    { timeout: 120_000 },
    async () => {
      const old = join(temp(), "old");
      mkdirSync(join(old, "region"), { recursive: true });
      copyFileSync(join(FIXTURES, "1.16", "r.0.-1.mca"), join(old, "region", "r.0.-1.mca"));
      writeFileSync(
        join(old, "level.dat"),
        gzipSync(
          encodeNbt(
            "",
            nbt.compound([
              [
                "Data",
                nbt.compound([
                  ["DataVersion", nbt.int(2566)],
                  [
                    "Version",
                    nbt.compound([
                      ["Id", nbt.int(2566)],
                      ["Name", nbt.string("1.16")],
                    ]),
                  ],
                ]),
              ],
            ]),
          ),
        ),
      );
      // The highest 16³ of a full chunk with something on it.
      const w = await AnvilWorld.open({ dir: old });
      const region = RegionFile.open(join(old, "region", "r.0.-1.mca"), 0, -1, false, true)!;
      const chunk = region.chunks().find((c) => w.stateAt(c.x * 16, 0, c.z * 16) !== "minecraft:air")!;
      region.close();
      let top = 0;
      for (let y = 255; y >= 0 && top === 0; y--)
        for (let i = 0; i < 256 && top === 0; i++) if (w.stateAt(chunk.x * 16 + (i & 15), y, chunk.z * 16 + (i >> 4)) !== "minecraft:air") top = y;
      await w.close();
      const [x0, z0, y0] = [chunk.x * 16, chunk.z * 16, Math.max(0, top - 12)];
      const oldState = temp();
      const file = join(oldState, "old-map.schem");
      const exported = await mcb(
        "schem",
        "export",
        "old_map",
        String(x0),
        String(y0),
        String(z0),
        String(x0 + 15),
        String(y0 + 15),
        String(z0 + 15),
        "-o",
        file,
        "--world",
        `save:${old}`,
        "--state",
        oldState,
        "--init",
      );
      expect(exported.code, exported.stderr).toBe(0);

      const target = await save262();
      const newState = temp();
      const imported = await mcb("schem", "import", file, "--at", "-16,64,-16", "--world", `save:${target}`, "--state", newState);
      expect(imported.code, imported.stderr + imported.stdout).toBe(0);
      expect(imported.stdout).toMatch(/applied/);

      // Every position: the new save holds what the stdlib reader finds in the old region, upgraded to 26.2.
      const theirs = (await stdlibChunks(join(old, "region"), [[chunk.x, chunk.z]]))[`${chunk.x},${chunk.z}`]!;
      const copy = await AnvilWorld.open({ dir: target });
      const diffs: string[] = [];
      let nonAir = 0;
      try {
        for (let dy = 0; dy < 16; dy++)
          for (let dz = 0; dz < 16; dz++)
            for (let dx = 0; dx < 16; dx++) {
              const y = y0 + dy;
              const sec = theirs.sections[String(y >> 4)];
              const raw = sec === undefined ? "minecraft:air" : sec.palette[sec.indices[((y & 15) << 8) | (dz << 4) | dx]!]!;
              const up = registry.resolveState(upgradeState(raw, 2566, registry.dataVersion).state);
              const want = up.ok ? up.value.canonical : raw;
              const got = copy.stateAt(-16 + dx, 64 + dy, -16 + dz);
              if (want !== "minecraft:air") nonAir++;
              if (got !== want && diffs.length < 5) diffs.push(`${dx} ${dy} ${dz}: ${got} ≠ ${want}`);
            }
      } finally {
        await copy.close();
      }
      expect(diffs).toEqual([]);
      expect(nonAir).toBeGreaterThan(100);
    },
  );
});
