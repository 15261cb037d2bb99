import fc from "fast-check";
import { PNG } from "pngjs";
import { describe, expect, it } from "vitest";
import { forEachPlanBlock } from "@mcb/recipe";
import { registry } from "../../blocks/test/registry.js";
import { brushColumns, parseBrush, planBrush, scanSurface, type Brush, type BoxReader } from "../src/index.js";

/** A column world: ground heights per column (grass on dirt), extra blocks by position. */
function world(height: (x: number, z: number) => number, extra: Record<string, string> = {}): BoxReader {
  return async (box) => {
    const palette: string[] = [];
    const idx = new Map<string, number>();
    const states = new Uint32Array((box.maxX - box.minX + 1) * (box.maxY - box.minY + 1) * (box.maxZ - box.minZ + 1));
    let i = 0;
    for (let y = box.minY; y <= box.maxY; y++)
      for (let z = box.minZ; z <= box.maxZ; z++)
        for (let x = box.minX; x <= box.maxX; x++, i++) {
          const h = height(x, z);
          const s = extra[`${x},${y},${z}`] ?? (y > h ? "minecraft:air" : y === h ? "minecraft:grass_block[snowy=false]" : "minecraft:dirt");
          if (!idx.has(s)) idx.set(s, palette.push(s) - 1);
          states[i] = idx.get(s)!;
        }
    return { ok: true, value: { palette, states } };
  };
}

async function run(b: unknown, read: BoxReader) {
  const brush = parseBrush(b);
  if (!brush.ok) throw new Error(brush.error.message);
  const scanned = await scanSurface(read, brushColumns(brush.value), brush.value.y_range.min, brush.value.y_range.max);
  if (!scanned.ok) throw new Error(scanned.error.message);
  const scan = scanned.value;
  const r = planBrush(registry(), brush.value, scan);
  if (!r.ok) throw new Error(r.error.message);
  return { brush: brush.value, scan, result: r.value };
}

/** Surface height per column after applying the plan to the scanned world. */
function surfaceAfter(scan: Awaited<ReturnType<typeof run>>["scan"], result: Awaited<ReturnType<typeof run>>["result"]): Map<string, number> {
  const out = new Map(scan.filter((c) => c.kind === "ground").map((c) => [`${c.x},${c.z}`, c.surfaceY]));
  if (result.plan === null) return out;
  const tops = new Map<string, number>();
  forEachPlanBlock(result.plan, (x, y, z, s) => {
    const key = `${x},${z}`;
    if (result.plan!.palette[s] !== "minecraft:air") tops.set(key, Math.max(tops.get(key) ?? -999, y));
    else if (!tops.has(key)) tops.set(key, Math.min(out.get(key)!, y - 1));
  });
  for (const [k, v] of tops) out.set(k, v);
  return out;
}

const flat = world(() => 64);
const base = { center: { x: 0, z: 0 }, radius: 6, y_range: { min: 50, max: 90 } };

describe("terrain brushes", () => {
  it("raise: the centre rises by amount, grass stays on top of dirt, dependencies are the scanned surface", async () => {
    const { result, scan } = await run({ ...base, action: "raise", amount: 4, soft_edge: 0 }, flat);
    expect(result.columns.scanned).toBe(brushColumns({ ...base, action: "raise" } as Brush).length);
    expect(result.raised).toBe(result.columns.scanned);
    const col = new Map<number, string>();
    forEachPlanBlock(result.plan!, (x, y, z, s) => x === 0 && z === 0 && col.set(y, result.plan!.palette[s]!));
    expect(col).toEqual(
      new Map([
        [64, "minecraft:dirt"],
        [65, "minecraft:dirt"],
        [66, "minecraft:dirt"],
        [67, "minecraft:dirt"],
        [68, "minecraft:grass_block[snowy=false]"],
      ]),
    );
    expect(result.plan!.reads.length / 3).toBe(scan.length * 2);
    expect(result.plan!.filters[0]!.ids).toContain("minecraft:grass_block");
    const png = PNG.sync.read(result.png);
    expect(png.width).toBeGreaterThan(png.height * 2);
  });

  it("lower clears plants on the old surface; preserved and non-natural columns are left alone", async () => {
    const read = world(() => 64, { "1,65,0": "minecraft:short_grass", "2,64,0": "minecraft:oak_planks", "3,65,0": "minecraft:water[level=0]" });
    const { result } = await run({ ...base, action: "lower", amount: 3, soft_edge: 0, preserve: [{ x: -1, z: 0 }] }, read);
    expect(result.columns.skipped).toEqual({ blocked: 1, water: 1, preserved: 1 });
    const touched = new Set<string>();
    const at = new Map<string, string>();
    forEachPlanBlock(result.plan!, (x, y, z, s) => (touched.add(`${x},${z}`), at.set(`${x},${y},${z}`, result.plan!.palette[s]!)));
    for (const k of ["-1,0", "2,0", "3,0"]) expect(touched.has(k)).toBe(false);
    expect(at.get("1,65,0")).toBe("minecraft:air");
    expect(at.get("1,61,0")).toBe("minecraft:grass_block[snowy=false]");
    expect(at.get("0,64,0")).toBe("minecraft:air");
  });

  it("flatten at full strength levels every ground column to the target", async () => {
    const read = world((x, z) => 60 + ((x * 3 + z * 5) & 7));
    const { scan, result } = await run({ ...base, action: "flatten", target_y: 63, soft_edge: 0 }, read);
    for (const [, h] of surfaceAfter(scan, result)) expect(h).toBe(63);
  });

  it("smooth never widens the height range and keeps columns inside the window (property)", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 55, max: 75 }), { minLength: 13 * 13, maxLength: 13 * 13 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        async (hs, soft) => {
          const read = world((x, z) => hs[x + 6 + (z + 6) * 13]!);
          const { scan, result } = await run({ ...base, action: "smooth", soft_edge: soft }, read);
          const before = scan.map((c) => c.surfaceY);
          const after = [...surfaceAfter(scan, result).values()];
          expect(Math.max(...after)).toBeLessThanOrEqual(Math.max(...before));
          expect(Math.min(...after)).toBeGreaterThanOrEqual(Math.min(...before));
        },
      ),
      { numRuns: 40 },
    );
  });

  it("nothing to do gives no plan (empty)", async () => {
    const { result } = await run({ ...base, action: "flatten", target_y: 64 }, flat);
    expect(result.plan).toBeNull();
    expect(result.columns.changed).toBe(0);
  });

  it("validates brushes", () => {
    for (const [b, reason] of [
      [{ ...base, action: "raise" }, "amount"],
      [{ ...base, action: "flatten" }, "target_y"],
      [{ ...base, action: "raise", amount: 2, y_range: { min: 0, max: 100 } }, "y_range"],
      [{ ...base, action: "raise", amount: 2, radius: 40 }, "schema"],
      [{ ...base, action: "dig", amount: 2 }, "schema"],
    ] as const)
      expect(parseBrush(b)).toMatchObject({ ok: false, error: { code: "invalid_request", details: { reason } } });
  });
});
