import { mkdtempSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { MAX_LIBRARY_FILES, SchematicLibrary, schematicFromRegion, writeSchematic, type Schematic } from "../src/index.js";
import { registry, states } from "./support.js";

function lib(): SchematicLibrary {
  return new SchematicLibrary(mkdtempSync(join(tmpdir(), "mcb-lib-")), registry());
}
const cube: Schematic = {
  width: 2,
  height: 2,
  length: 2,
  offset: { x: 0, y: 0, z: 0 },
  dataVersion: 4903,
  palette: states().slice(0, 2),
  blocks: Uint32Array.from([0, 1, 1, 1, 1, 1, 1, 0]),
  blockEntities: [],
};

describe("schematic library", () => {
  it("saves, lists with metadata, loads by id and never overwrites", () => {
    const l = lib();
    const saved = l.save("tower_1", cube);
    expect(saved.ok).toBe(true);
    if (!saved.ok) return;
    const bytes = readFileSync(join(l.dir, "tower_1.schem"));
    expect(saved.value).toMatchObject({
      assetId: "tower_1",
      name: "tower_1",
      width: 2,
      height: 2,
      length: 2,
      blockCount: 6,
      dataVersion: 4903,
      bytes: bytes.length,
    });
    expect(saved.value.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(l.list().ok && l.list()).toMatchObject({ value: [saved.value] });
    expect(l.list("TOWER")).toMatchObject({ ok: true, value: [{ assetId: "tower_1" }] });
    expect(l.list("castle")).toMatchObject({ ok: true, value: [] });
    expect(l.load("tower_1")).toMatchObject({ ok: true, value: { info: saved.value } });
    const again = l.save("tower_1", { ...cube, blocks: new Uint32Array(8) });
    expect(again).toMatchObject({ ok: false, error: { code: "invalid_request", details: { reason: "asset_exists" } } });
    expect(readFileSync(join(l.dir, "tower_1.schem")).equals(bytes)).toBe(true);
  });

  it("refuses paths, dots, spaces and over-long names as ids", () => {
    const l = lib();
    for (const id of ["../x", "a/b", "a.b", " a", "", "_a", "a".repeat(65), "a b", "..", "x\u0000"]) {
      expect(l.save(id, cube)).toMatchObject({ ok: false, error: { code: "invalid_request", details: { reason: "asset_id" } } });
      expect(l.load(id)).toMatchObject({ ok: false, error: { code: "invalid_request" } });
    }
    expect(l.load("missing")).toMatchObject({ ok: false, error: { code: "not_found" } });
  });

  it("refuses symbolic links, even to a valid schematic", () => {
    const l = lib();
    expect(l.save("real", cube).ok).toBe(true);
    symlinkSync(join(l.dir, "real.schem"), join(l.dir, "link.schem"));
    expect(l.load("link")).toMatchObject({ ok: false, error: { code: "invalid_request", details: { reason: "symlink" } } });
    expect(l.list()).toMatchObject({ ok: false, error: { details: { asset_id: "link" } } });
  });

  it("a corrupt file fails the list with its id; files with other names are ignored", () => {
    const l = lib();
    expect(l.save("good", cube).ok).toBe(true);
    writeFileSync(join(l.dir, "notes.txt"), "hello");
    writeFileSync(join(l.dir, "bad name.schem"), "x");
    expect(l.list()).toMatchObject({ ok: true, value: [{ assetId: "good" }] });
    writeFileSync(join(l.dir, "broken.schem"), "not gzip");
    expect(l.list()).toMatchObject({ ok: false, error: { code: "invalid_request", details: { asset_id: "broken" } } });
  });

  it(`holds at most ${MAX_LIBRARY_FILES} files`, () => {
    const l = lib();
    const bytes = writeSchematic(cube);
    for (let i = 0; i < MAX_LIBRARY_FILES; i++) writeFileSync(join(l.dir, `a${i}.schem`), bytes);
    expect(l.save("one_more", cube)).toMatchObject({ ok: false, error: { code: "budget_exceeded" } });
    writeFileSync(join(l.dir, "extra.schem"), bytes);
    expect(l.list()).toMatchObject({ ok: false, error: { code: "budget_exceeded" } });
  });
});

describe("schematic from a region", () => {
  const box = { minX: 10, minY: 64, minZ: -5, maxX: 11, maxY: 64, maxZ: -5 };
  const blockEntityType = (s: string) => (s.startsWith("minecraft:chest") ? "minecraft:chest" : null);

  it("takes the offset from the origin and keeps the read order", () => {
    const r = schematicFromRegion({
      region: { box, palette: ["minecraft:air", "minecraft:stone"], states: Uint32Array.from([1, 0]), digests: new Map() },
      origin: { x: 10, y: 60, z: 0 },
      dataVersion: 4786,
      blockEntityType,
    });
    expect(r).toMatchObject({
      ok: true,
      value: { width: 2, height: 1, length: 1, offset: { x: 0, y: 4, z: -5 }, palette: ["minecraft:stone", "minecraft:air"] },
    });
  });

  it("refuses block entities whose data the world does not give (rather than losing it), and says where", () => {
    const chest = "minecraft:chest[facing=north,type=single,waterlogged=false]";
    const r = schematicFromRegion({
      region: { box, palette: ["minecraft:air", chest], states: Uint32Array.from([0, 1]), digests: new Map() },
      origin: { x: 0, y: 0, z: 0 },
      dataVersion: 4786,
      blockEntityType,
    });
    expect(r).toMatchObject({
      ok: false,
      error: { code: "invalid_request", details: { reason: "block_entities", count: 1, sample: [{ x: 11, y: 64, z: -5, state: chest }] } },
    });
  });
});
