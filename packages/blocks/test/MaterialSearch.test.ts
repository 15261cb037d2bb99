import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createMaterialCatalog, describeMaterial, searchMaterials, type MaterialSearchPage } from "../src/index.js";
import { registry } from "./registry.js";

const catalog = createMaterialCatalog(registry());

function page(input: Parameters<typeof searchMaterials>[1]): MaterialSearchPage {
  const r = searchMaterials(catalog, input);
  if (!r.ok) throw new Error(JSON.stringify(r.error));
  return r.value;
}

function bytes(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value), "utf8");
}

describe("material catalog", () => {
  it("summary has counts and limits, and a content-derived version", () => {
    const s = catalog.summary;
    expect(s).toMatchObject({ materials: 1691, blocks: 1196, items: 1537, search_default_limit: 16, search_max_limit: 32 });
    expect(s.version).toMatch(/^[0-9a-f]{24}$/);
    expect(s.materials).toBeLessThan(s.blocks + s.items);
    expect(createMaterialCatalog(registry())).toBe(catalog); // built once per registry
    expect(createMaterialCatalog({ ...registry() }).version).toBe(s.version); // same content, rebuilt: same version
    const older = createMaterialCatalog(
      (() => {
        const r = registry();
        return { ...r, blockTypes: new Map([...r.blockTypes].slice(1)) };
      })(),
    );
    expect(older.version).not.toBe(s.version);
  });
});

describe("material_search", () => {
  it("finds 26.2's new families: 13 cinnabar blocks, the sulfur spike, and describes them", () => {
    const cinnabar = page({ query: "cinnabar", limit: 32 });
    expect(cinnabar.total).toBe(13);
    expect(cinnabar.results.map((r) => r.id)).toContain("minecraft:chiseled_cinnabar");
    expect(page({ query: "sulfur spike" }).results.map((r) => r.id)).toEqual(["minecraft:sulfur_spike"]);
    const d = describeMaterial(catalog, "minecraft:sulfur_spike");
    if (!d.ok) throw new Error(d.error.message);
    expect(d.value).toMatchObject({ id: "minecraft:sulfur_spike", behavior: ["attachment"] });
  });

  it("matches every token case-insensitively against ids", () => {
    const p = page({ query: "  Spruce   TRAPDOOR " });
    expect(p.query).toBe("spruce trapdoor");
    expect(p.results.map((r) => r.id)).toEqual(["minecraft:spruce_trapdoor"]);
    const copper = page({ query: "copper trapdoor", limit: 32 });
    expect(copper.total).toBe(8);
    for (const r of copper.results) expect(r.id.includes("copper") && r.id.includes("trapdoor")).toBe(true);
    expect(copper.results[0]?.id).toBe("minecraft:copper_trapdoor");
  });

  it("filters by kind; item-only materials are not blocks", () => {
    const items = page({ query: "diamond", kind: "item", limit: 32 });
    expect(items.results.some((r) => r.id === "minecraft:diamond" && !r.block && r.item)).toBe(true);
    const blocks = page({ query: "diamond", kind: "block", limit: 32 });
    expect(blocks.results.every((r) => r.block)).toBe(true);
    expect(blocks.results.some((r) => r.id === "minecraft:diamond")).toBe(false);
    const all = page({ query: "diamond", kind: "all", limit: 32 });
    expect(all.total).toBeGreaterThanOrEqual(Math.max(items.total, blocks.total));
  });

  it("paginates every match exactly once, even for an empty query (property)", () => {
    fc.assert(
      fc.property(
        fc.constantFrom("", "oak", "stone brick", "copper", "red", "wall", "a"),
        fc.constantFrom("block" as const, "item" as const, "all" as const),
        fc.integer({ min: 1, max: 32 }),
        (query, kind, limit) => {
          const seen: string[] = [];
          let cursor: string | undefined;
          let total = -1;
          for (let guard = 0; guard < 2000; guard++) {
            const p = page(cursor === undefined ? { query, kind, limit } : { query, kind, limit, cursor });
            total = p.total;
            expect(p.results.length).toBeLessThanOrEqual(limit);
            seen.push(...p.results.map((r) => r.id));
            if (p.next_cursor === undefined) break;
            expect(p.next_cursor.length).toBeLessThanOrEqual(100);
            cursor = p.next_cursor;
          }
          expect(seen.length).toBe(total);
          expect(new Set(seen).size).toBe(total);
        },
      ),
      { numRuns: 40 },
    );
  });

  it("binds cursors to the catalog version, query and kind", () => {
    const first = page({ query: "oak", limit: 4 });
    const cursor = first.next_cursor!;
    expect(page({ query: "OAK", limit: 4, cursor }).results[0]?.id).not.toBe(first.results[0]?.id);
    for (const changed of [{ query: "birch" }, { query: "oak", kind: "all" }]) {
      expect(searchMaterials(catalog, { ...changed, cursor })).toMatchObject({
        ok: false,
        error: { code: "invalid_request", details: { reason: "cursor_mismatch" } },
      });
    }
    const other = { ...catalog, version: "000000000000000000000000" };
    expect(searchMaterials(other, { query: "oak", cursor })).toMatchObject({ ok: false, error: { details: { reason: "cursor_mismatch" } } });
    for (const bad of ["", "x", "c1.zzzzzzzzz.0123456789abcdef0123", "c1.1." + "0".repeat(20) + "x", 5, "c".repeat(101)]) {
      expect(searchMaterials(catalog, { query: "oak", cursor: bad })).toMatchObject({ ok: false, error: { code: "invalid_request" } });
    }
  });

  it("rejects bad queries, kinds and limits", () => {
    expect(searchMaterials(catalog, { query: "x".repeat(97) })).toMatchObject({ ok: false, error: { details: { reason: "invalid_query" } } });
    expect(searchMaterials(catalog, { query: "x".repeat(96) }).ok).toBe(true);
    expect(searchMaterials(catalog, { query: "oak\n" })).toMatchObject({ ok: false, error: { details: { reason: "invalid_query" } } });
    expect(searchMaterials(catalog, { query: 3 })).toMatchObject({ ok: false, error: { details: { reason: "invalid_query" } } });
    expect(searchMaterials(catalog, { kind: "entity" })).toMatchObject({ ok: false, error: { details: { reason: "invalid_kind" } } });
    for (const limit of [0, 33, 1.5, "3"]) {
      expect(searchMaterials(catalog, { limit })).toMatchObject({ ok: false, error: { details: { reason: "invalid_limit" } } });
    }
  });
});

describe("material_describe", () => {
  it("describes a block with default state, property domains and hints", () => {
    const r = describeMaterial(catalog, "minecraft:spruce_trapdoor");
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value).toMatchObject({ id: "minecraft:spruce_trapdoor", block: true, item: true, placeable: true, catalog_version: catalog.version });
    expect(registry().resolveState(r.value.default_state!).ok).toBe(true);
    expect(r.value.properties?.["facing"]).toEqual(["north", "south", "west", "east"]);
    expect(r.value.properties?.["half"]).toEqual(["top", "bottom"]);
  });

  it("item-only entries are not placeable and carry no state", () => {
    const r = describeMaterial(catalog, "minecraft:diamond");
    expect(r).toEqual({ ok: true, value: { catalog_version: catalog.version, id: "minecraft:diamond", block: false, item: true, placeable: false } });
  });

  it("a missing namespace means minecraft: (as in state strings); unknown ids are not_found", () => {
    expect(describeMaterial(catalog, "stone")).toEqual(describeMaterial(catalog, "minecraft:stone"));
    expect(describeMaterial(catalog, "stone")).toMatchObject({ ok: true, value: { id: "minecraft:stone" } });
    expect(describeMaterial(catalog, "minecraft:nope")).toMatchObject({ ok: false, error: { code: "not_found" } });
    expect(describeMaterial(catalog, "x".repeat(129))).toMatchObject({ ok: false, error: { code: "invalid_request" } });
    expect(describeMaterial(catalog, "minecraft:stone[x=1]")).toMatchObject({ ok: false, error: { code: "invalid_request" } });
  });

  it("every block describes without enumerating state combinations", () => {
    let largest = 0;
    for (const id of registry().blockTypes.keys()) {
      const r = describeMaterial(catalog, id);
      expect(r.ok).toBe(true);
      largest = Math.max(largest, bytes(r.ok ? r.value : null));
    }
    console.log(`largest describe response: ${largest} B`);
    expect(largest).toBeLessThan(1_024);
  });
});

describe("response sizes within the budgets measured for the first design", () => {
  it("catalog summary ≤130 B, 16-result page ≤1,256 B, 3-result copper trapdoor page ≤374 B, candle ≤324 B", () => {
    const summary = bytes(catalog.summary);
    const defaultPage = bytes(page({}));
    const copper = bytes(page({ query: "copper trapdoor", limit: 3 }));
    const candle = describeMaterial(catalog, "minecraft:candle");
    const candleBytes = bytes(candle.ok ? candle.value : null);
    console.log(
      `response sizes (ours vs the first design's budget): summary ${summary}/130 B, default page ${defaultPage}/1256 B, copper trapdoor×3 ${copper}/374 B, candle ${candleBytes}/324 B`,
    );
    expect(summary).toBeLessThanOrEqual(130);
    expect(defaultPage).toBeLessThanOrEqual(1_256);
    expect(copper).toBeLessThanOrEqual(374);
    expect(candleBytes).toBeLessThanOrEqual(324);
  });
});
