import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { HostCrash } from "@mcb/engine";
import { MemoryWorld } from "../src/index.js";

const CHEST = "minecraft:chest[facing=north,type=single,waterlogged=false]";
const isChest = (s: string): boolean => s.startsWith("minecraft:chest");
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const box = (minX: number, minY: number, minZ: number, maxX: number, maxY: number, maxZ: number) => ({ minX, minY, minZ, maxX, maxY, maxZ });

describe("MemoryWorld reads", () => {
  it("reads a box in (y, z, x) order with a palette, void air outside the height range", async () => {
    const w = new MemoryWorld({ minY: 0, maxY: 15 });
    w.externalEdit(1, 0, 0, "minecraft:stone");
    w.externalEdit(0, 0, 1, "minecraft:dirt");
    const r = await w.read(box(0, -1, 0, 1, 0, 1));
    const states = [...r.states].map((i) => r.palette[i]);
    expect(states).toEqual([
      "minecraft:void_air",
      "minecraft:void_air",
      "minecraft:void_air",
      "minecraft:void_air",
      "minecraft:air",
      "minecraft:stone",
      "minecraft:dirt",
      "minecraft:air",
    ]);
    await expect(w.read(box(0, 0, 0, 40, 15, 60))).rejects.toThrow(/exceeds/);
  });

  it("matches a Map model under random edits, across section palette compaction", () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(fc.integer({ min: -20, max: 20 }), fc.integer({ min: 0, max: 3 }), fc.integer({ min: -20, max: 20 }), fc.integer({ min: 0, max: 5000 })),
          { maxLength: 300 },
        ),
        (edits) => {
          const w = new MemoryWorld();
          const model = new Map<string, string>();
          for (const [x, y, z, s] of edits) {
            const state = s === 0 ? "minecraft:air" : `minecraft:stone_${s}`;
            w.externalEdit(x, y, z, state);
            model.set(`${x},${y},${z}`, state);
          }
          for (const [k, s] of model) {
            const [x, y, z] = k.split(",").map(Number) as [number, number, number];
            expect(w.stateAt(x, y, z)).toBe(s);
          }
        },
      ),
      { numRuns: 50 },
    );
    // Palette compaction: 5000 distinct states through one section.
    const w = new MemoryWorld();
    for (let i = 0; i < 5000; i++) w.externalEdit(i % 16, 0, 0, `minecraft:s${i}`);
    const last = new Map<number, number>();
    for (let i = 0; i < 5000; i++) last.set(i % 16, i);
    for (let x = 0; x < 16; x++) expect(w.stateAt(x, 0, 0)).toBe(`minecraft:s${last.get(x)}`);
  });
});

describe("MemoryWorld compare-and-set", () => {
  it("writes nothing when a check fails and stops at the first failing group", async () => {
    const w = new MemoryWorld();
    w.externalEdit(0, 63, 0, "minecraft:stone");
    const writes = [0, 1, 2, 3].map((x) => ({ x, y: 64, z: 0, before: "minecraft:air", beforeDigest: null, after: "minecraft:glass" }));
    const failedCheck = await w.compareAndSet({ checks: [{ x: 0, y: 63, z: 0, state: "minecraft:dirt", digest: null }], writes });
    expect(failedCheck.written).toBe(0);
    expect(failedCheck.mismatches).toMatchObject([{ kind: "check", actual: "minecraft:stone" }]);
    expect(w.stateAt(0, 64, 0)).toBe("minecraft:air");
    w.externalEdit(2, 64, 0, "minecraft:dirt");
    const partial = await w.compareAndSet({ checks: [], writes, groupEnds: [1, 3, 4] });
    expect(partial.written).toBe(1);
    expect(partial.mismatches).toMatchObject([{ kind: "write", index: 2, actual: "minecraft:dirt" }]);
    expect([0, 1, 2, 3].map((x) => w.stateAt(x, 64, 0))).toEqual(["minecraft:glass", "minecraft:air", "minecraft:dirt", "minecraft:air"]);
  });

  it("keeps block-entity data on same-material edits, creates defaults, drops it with the block", async () => {
    const w = new MemoryWorld({ hasBlockEntity: isChest });
    const put = (before: string, beforeDigest: string | null, after: string) =>
      w.compareAndSet({ checks: [], writes: [{ x: 0, y: 64, z: 0, before, beforeDigest, after }] });
    const created = await put("minecraft:air", null, CHEST);
    const fresh = w.digestAt(0, 64, 0)!;
    expect(created.entityDigests.get(0)).toBe(fresh);
    const data = new TextEncoder().encode("items");
    w.setBlockEntityData(0, 64, 0, data);
    const digest = createHash("sha256").update(data).digest("hex");
    expect(w.digestAt(0, 64, 0)).toBe(digest);
    const stale = await put(CHEST, fresh, "minecraft:chest[facing=east,type=single,waterlogged=false]");
    expect(stale.written).toBe(0);
    expect(stale.mismatches[0]).toMatchObject({ expectedDigest: fresh, actualDigest: digest });
    await put(CHEST, digest, "minecraft:chest[facing=east,type=single,waterlogged=false]");
    expect(w.digestAt(0, 64, 0)).toBe(digest);
    await put("minecraft:chest[facing=east,type=single,waterlogged=false]", digest, "minecraft:air");
    expect(w.digestAt(0, 64, 0)).toBeNull();
  });
});

describe("MemoryWorld events and faults", () => {
  it("reports external edits after a cursor, a gap past retention, and a gap across restarts", async () => {
    const w = new MemoryWorld({ eventRetention: 3 });
    const start = (await w.events(null)).cursor;
    w.externalEdit(1, 64, 1, "minecraft:stone");
    w.externalEdit(2, 64, 2, "minecraft:stone", { emitEvent: false });
    const page = await w.events(start);
    expect(page).toMatchObject({ gap: false, events: [{ x: 1, y: 64, z: 1, state: "minecraft:stone", digest: null }] });
    for (let i = 0; i < 4; i++) w.externalEdit(i, 65, 0, "minecraft:dirt");
    expect((await w.events(page.cursor)).gap).toBe(true);
    const head = (await w.events(null)).cursor;
    w.restart();
    expect((await w.events(head)).gap).toBe(true);
  });

  it("kill() keeps the host down until restart; what was written stays", async () => {
    const w = new MemoryWorld();
    await w.compareAndSet({ checks: [], writes: [{ x: 0, y: 64, z: 0, before: "minecraft:air", beforeDigest: null, after: "minecraft:glass" }] });
    w.kill();
    expect(w.hostDown).toBe(true);
    await expect(w.info()).rejects.toBeInstanceOf(HostCrash);
    await expect(
      w.compareAndSet({ checks: [], writes: [{ x: 1, y: 64, z: 0, before: "minecraft:air", beforeDigest: null, after: "minecraft:glass" }] }),
    ).rejects.toBeInstanceOf(HostCrash);
    w.restart();
    expect([0, 1].map((x) => w.stateAt(x, 64, 0))).toEqual(["minecraft:glass", "minecraft:air"]);
    expect((await w.info()).worldId).toBeTypeOf("string");
  });
});

describe("MemoryWorld persistence", () => {
  it("reloads states, block-entity data and identity from its directory", async () => {
    const dir = mkdtempSync(join(tmpdir(), "mcb-world-"));
    dirs.push(dir);
    const a = new MemoryWorld({ dir, hasBlockEntity: isChest, epoch: 7 });
    a.externalEdit(-17, -64, 40, "minecraft:stone");
    a.externalEdit(5, 100, 5, CHEST, { data: new TextEncoder().encode("loot") });
    await a.compareAndSet({ checks: [], writes: [{ x: 6, y: 100, z: 5, before: "minecraft:air", beforeDigest: null, after: "minecraft:glass" }] });
    expect(readdirSync(join(dir, "sections")).filter((f) => f.endsWith(".tmp"))).toEqual([]);
    const b = new MemoryWorld({ dir, hasBlockEntity: isChest });
    expect((await b.info()).worldId).toBe((await a.info()).worldId);
    expect((await b.info()).epoch).toBe(7);
    expect(b.stateAt(-17, -64, 40)).toBe("minecraft:stone");
    expect(b.stateAt(6, 100, 5)).toBe("minecraft:glass");
    expect(b.digestAt(5, 100, 5)).toBe(a.digestAt(5, 100, 5));
    expect((await b.info()).capabilities).toContain("persistence");
  });
});

describe("MemoryWorld persisted event log", () => {
  it("a stored world reports the edits another instance made after a cursor; a restart starts a new session", async () => {
    const dir = mkdtempSync(join(tmpdir(), "mcb-world-"));
    dirs.push(dir);
    const a = new MemoryWorld({ dir });
    const cursor = (await a.events(null)).cursor;
    a.externalEdit(1, 64, 1, "minecraft:glass");
    a.externalEdits([
      { x: 2, y: 64, z: 1, state: "minecraft:dirt" },
      { x: 3, y: 64, z: 1, state: "minecraft:dirt" },
    ]);
    const b = new MemoryWorld({ dir }); // another process, later
    const page = await b.events(cursor);
    expect(page.gap).toBe(false);
    expect(page.events.map((e) => [e.x, e.state])).toEqual([
      [1, "minecraft:glass"],
      [2, "minecraft:dirt"],
      [3, "minecraft:dirt"],
    ]);
    expect((await b.events(page.cursor)).events).toEqual([]);
    expect(() =>
      b.externalEdits([
        { x: 4, y: 64, z: 1, state: "minecraft:dirt" },
        { x: 5, y: 999, z: 1, state: "minecraft:dirt" },
      ]),
    ).toThrow(/outside the world/);
    expect(b.stateAt(4, 64, 1)).toBe("minecraft:air"); // nothing of a refused batch
    b.restart();
    expect((await new MemoryWorld({ dir }).events(page.cursor)).gap).toBe(true);
  });

  it("keeps the newest events within its retention across compactions; an older cursor reports a gap", async () => {
    const dir = mkdtempSync(join(tmpdir(), "mcb-world-"));
    dirs.push(dir);
    const a = new MemoryWorld({ dir, eventRetention: 5 });
    const start = (await a.events(null)).cursor;
    for (let i = 0; i < 23; i++) a.externalEdit(i, 64, 0, "minecraft:stone");
    const mid = `${start.split(":")[0]}:20`;
    const b = new MemoryWorld({ dir, eventRetention: 5 });
    expect((await b.events(start)).gap).toBe(true);
    expect((await b.events(mid)).events.map((e) => e.x)).toEqual([20, 21, 22]);
  });
});

describe("MemoryWorld section-wise reads", () => {
  it("read() equals stateAt/digestAt at every position, across section borders and the height limits (property)", async () => {
    const STATES = ["minecraft:stone", "minecraft:dirt", CHEST, "minecraft:air", "minecraft:oak_log[axis=z]"];
    await fc.assert(
      fc.asyncProperty(
        fc.array(
          fc.record({
            x: fc.integer({ min: -20, max: 20 }),
            y: fc.oneof(fc.integer({ min: -66, max: -55 }), fc.integer({ min: 60, max: 70 }), fc.integer({ min: 310, max: 321 })),
            z: fc.integer({ min: -20, max: 20 }),
            s: fc.nat({ max: STATES.length - 1 }),
            data: fc.nat({ max: 3 }),
          }),
          { maxLength: 120 },
        ),
        fc.record({ x: fc.integer({ min: -20, max: 5 }), y: fc.constantFrom(-68, -60, 58, 62, 305, 315), z: fc.integer({ min: -20, max: 5 }) }),
        fc.record({ w: fc.integer({ min: 1, max: 24 }), h: fc.integer({ min: 1, max: 12 }), l: fc.integer({ min: 1, max: 24 }) }),
        async (writes, at, size) => {
          const w = new MemoryWorld({ hasBlockEntity: isChest });
          for (const e of writes) {
            if (e.y < -64 || e.y > 319) continue;
            w.externalEdit(e.x, e.y, e.z, STATES[e.s]!, { emitEvent: false });
            if (STATES[e.s] === CHEST && e.data > 0) w.setBlockEntityData(e.x, e.y, e.z, Uint8Array.of(e.data), false);
          }
          const b = box(at.x, at.y, at.z, at.x + size.w - 1, at.y + size.h - 1, at.z + size.l - 1);
          const r = await w.read(b);
          let i = 0;
          for (let y = b.minY; y <= b.maxY; y++)
            for (let z = b.minZ; z <= b.maxZ; z++)
              for (let x = b.minX; x <= b.maxX; x++, i++) {
                expect(r.palette[r.states[i]!]).toBe(w.stateAt(x, y, z));
                expect(r.digests.get(i) ?? null).toBe(w.digestAt(x, y, z));
              }
          expect(new Set(r.palette).size).toBe(r.palette.length);
        },
      ),
      { numRuns: 200 },
    );
  });
});
