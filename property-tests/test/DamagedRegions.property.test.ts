import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { AnvilWorld, RegionFile } from "@mcb/adapter-anvil";
import { realSave, sharedRegistry, stdlibBoth, stdlibChunks, stdlibRecords, type StdlibChunk, type StdlibRecords } from "../src/index.js";
import { mcb } from "../src/interop/Cli.js";

/**
 * Damaged region files are never written over (issue 42). The save: two region files the game
 * wrote (prismarine-provider-anvil's 1.21.1 and 1.20.6 fixtures, MIT), restamped to 26.2 in the
 * game's own sector layout (`realSave`). One of them gets a fault a crash, a full disk or a bad
 * copy leaves (cut at a random byte inside or after a chunk, a header entry zeroed, garbled or
 * pointing at another chunk's sectors, a bad compression byte, a length past the sectors, or a last
 * chunk whose sectors run past the end of the file while its data is whole), or none. Then `mcb
 * build` and `mcb undo` run as a person runs them (the CLI, in process) in boxes of both files.
 * An independent reader (the Python standard library's, `stdlib_region.py`) judges damage by the
 * format's own rules and reads what is on disk. After every command:
 * - a damaged file is byte-identical to before, and a build there was refused up front
 *   (`world_damaged`) with no operation journalled;
 * - a healthy file has no damage and no sector shared by two chunks; every chunk mcb did not write
 *   (nor relight-flag) is byte-identical; every chunk it wrote reads, in the independent reader and
 *   in mcb, as the original with exactly the standing builds' blocks;
 * - every operation reported applied and saved is on disk; no output carries a stack trace.
 * The same property catches a planted allocator that trusts the file's length.
 */
const registry = sharedRegistry();
const canonical = (s: string): string => {
  const r = registry.resolveState(s);
  return r.ok ? r.value.canonical : s;
};
const sha = (p: string): string => createHash("sha256").update(readFileSync(p)).digest("hex");
const FILES = ["r.0.0.mca", "r.1.0.mca"] as const;
/** Disjoint boxes in full chunks' interiors (the 1.21.1 region's chunks 0..3, the 1.20.6 one's 32..35), above the terrain and through it. */
const SLOTS = [
  { file: 0, min: { x: 19, y: 90, z: 19 } },
  { file: 0, min: { x: 37, y: 60, z: 21 } },
  { file: 0, min: { x: 22, y: 70, z: 38 } },
  { file: 1, min: { x: 532, y: 90, z: 19 } },
  { file: 1, min: { x: 549, y: 60, z: 38 } },
  { file: 1, min: { x: 535, y: 75, z: 51 } },
] as const;
const BLOCKS = ["minecraft:stone_bricks", "minecraft:glass", "minecraft:oak_planks", "minecraft:water[level=0]"] as const;

let template = "";
let originals: Record<string, StdlibChunk | null> = {};
const dirs: string[] = [];
beforeAll(async () => {
  template = join(mkdtempSync(join(tmpdir(), "mcb-damaged-")), "save");
  dirs.push(join(template, ".."));
  realSave(
    template,
    [
      { version: "1.21.1", from: 3955 },
      { version: "1.20.6", from: 3839, rx: 1, rz: 0 },
    ],
    4903,
    "26.2",
  );
  originals = await stdlibChunks(regionDir(template), sectionsOf(SLOTS.map((_, i) => i)));
});
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

function regionDir(save: string): string {
  return join(save, "dimensions", "minecraft", "overworld", "region");
}

type Fault =
  | { readonly kind: "none" }
  | { readonly kind: "truncate"; readonly chunk: number; readonly after: boolean; readonly at: number }
  | { readonly kind: "zero" | "overlap" | "compression" | "length"; readonly chunk: number; readonly other: number }
  | { readonly kind: "garble"; readonly chunk: number; readonly value: number }
  | { readonly kind: "overclaim"; readonly extra: number };

const faultArb: fc.Arbitrary<Fault> = fc.oneof(
  fc.constant({ kind: "none" as const }),
  fc.record({ kind: fc.constant("truncate" as const), chunk: fc.nat(), after: fc.boolean(), at: fc.double({ min: 0, max: 1, noNaN: true }) }),
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constantFrom("zero" as const, "overlap" as const, "compression" as const, "length" as const),
      chunk: fc.nat(),
      other: fc.nat(),
    }),
  },
  fc.record({ kind: fc.constant("garble" as const), chunk: fc.nat(), value: fc.nat({ max: 0xffffffff }) }),
  fc.record({ kind: fc.constant("overclaim" as const), extra: fc.integer({ min: 1, max: 3 }) }),
);

/** Listed chunks of a region file in file order: [index, start, count, data end]. */
function layout(b: Buffer): [number, number, number, number][] {
  const out: [number, number, number, number][] = [];
  for (let i = 0; i < 1024; i++) {
    const e = b.readUInt32BE(i * 4);
    if (e === 0) continue;
    const start = e >>> 8;
    out.push([i, start, e & 255, start * 4096 + 4 + b.readUInt32BE(start * 4096)]);
  }
  return out.sort((a, b) => a[1] - b[1]);
}

/** Applies a fault to one region file (what a crash, a full disk or a bad copy leaves). */
function inject(path: string, f: Fault): void {
  if (f.kind === "none") return;
  const b = readFileSync(path);
  const chunks = layout(b);
  if (f.kind === "overclaim") {
    // The last chunk keeps its data whole, but its entry claims sectors the file does not hold (yet).
    const [i, start, count, end] = chunks.at(-1)!;
    b.writeUInt32BE(((start << 8) | (count + f.extra)) >>> 0, i * 4);
    writeFileSync(path, b.subarray(0, end));
    return;
  }
  const [i, start, , end] = chunks[f.chunk % chunks.length]!;
  switch (f.kind) {
    case "truncate": {
      const next = chunks.find((c) => c[1] * 4096 >= end)?.[1];
      const lo = f.after ? end : start * 4096 + 1,
        hi = f.after ? (next === undefined ? b.length : next * 4096) : end;
      writeFileSync(path, b.subarray(0, Math.floor(lo + f.at * Math.max(0, hi - lo))));
      return;
    }
    case "zero":
      b.writeUInt32BE(0, i * 4);
      break;
    case "garble":
      b.writeUInt32BE(f.value >>> 0, i * 4);
      break;
    case "overlap":
      b.writeUInt32BE(b.readUInt32BE(chunks[(f.chunk + 1 + (f.other % (chunks.length - 1))) % chunks.length]![0] * 4), i * 4);
      break;
    case "compression":
      b[start * 4096 + 4] = [0, 5, 9, 127, 200][f.other % 5]!;
      break;
    case "length":
      b.writeUInt32BE((chunks[f.chunk % chunks.length]![2] * 4096 + 1 + (f.other % 5000)) >>> 0, start * 4096);
      break;
  }
  writeFileSync(path, b);
}

type Step = { readonly build: number; readonly block: number } | { readonly undo: number };
const scenarioArb = fc.record({
  file: fc.integer({ min: 0, max: 1 }),
  fault: faultArb,
  steps: fc.array(
    fc.oneof(
      { weight: 3, arbitrary: fc.record({ build: fc.nat({ max: SLOTS.length - 1 }), block: fc.nat({ max: BLOCKS.length - 1 }) }) },
      { weight: 2, arbitrary: fc.record({ undo: fc.nat() }) },
    ),
    {
      minLength: 2,
      maxLength: 5,
    },
  ),
});

const indexOf = (x: number, z: number): string => String((x & 31) | ((z & 31) << 5));

/** The chunks of these slots, each with the section Ys its box crosses. */
function sectionsOf(slots: readonly number[]): [number, number, number[]][] {
  const by = new Map<string, [number, number, number[]]>();
  for (const slot of slots) {
    const m = SLOTS[slot]!.min;
    const key = `${m.x >> 4},${m.z >> 4}`;
    const e = by.get(key) ?? [m.x >> 4, m.z >> 4, []];
    for (const y of [m.y >> 4, (m.y + 2) >> 4]) if (!e[2].includes(y)) e[2].push(y);
    by.set(key, e);
  }
  return [...by.values()];
}
const boxOf = (slot: number) => {
  const m = SLOTS[slot]!.min;
  return { min: m, max: { x: m.x + 2, y: m.y + 2, z: m.z + 2 } };
};

/** The state a chunk decode holds at a block (null: the section is absent, air). */
function stateIn(c: StdlibChunk, x: number, y: number, z: number): string {
  const s = c.sections[String(y >> 4)];
  if (s === undefined) return "minecraft:air";
  return canonical(s.palette[s.indices[((y & 15) << 8) | ((z & 15) << 4) | (x & 15)]!]!);
}

async function run(s: { file: number; fault: Fault; steps: readonly Step[] }): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), "mcb-damaged-run-"));
  try {
    const save = join(root, "save");
    cpSync(template, save, { recursive: true });
    const files = FILES.map((f) => join(regionDir(save), f));
    inject(files[s.file]!, s.fault);
    const before = await stdlibRecords(files);
    const beforeSha = files.map(sha);
    const damaged = files.map((f) => Object.keys(before[f]!.damaged).length > 0);
    const state = join(root, "state");
    const world = ["--world", `save:${save}`, "--state", state];
    const applied: { slot: number; block: string; op: string; undone: boolean }[] = [];
    const touched = new Set<string>();
    for (const step of s.steps) {
      let r: { code: number; stdout: string; stderr: string };
      const ops = countOps(state);
      if ("build" in step) {
        const slot = step.build;
        if (applied.some((a) => a.slot === slot && !a.undone)) continue;
        const recipe = join(root, `slot${slot}.json`);
        const block = BLOCKS[step.block]!;
        writeFileSync(recipe, JSON.stringify({ version: 1, operations: [{ type: "box", ...boxOf(slot), block }] }));
        r = await mcb("build", recipe, ...world, "--json");
        const file = SLOTS[slot]!.file;
        const chunk = [SLOTS[slot]!.min.x >> 4, SLOTS[slot]!.min.z >> 4] as const;
        const present = before[files[file]!]!.entries[indexOf(chunk[0], chunk[1])] !== undefined;
        if (damaged[file]) {
          expect(r.code, r.stderr).toBe(1);
          expect(JSON.parse(r.stderr.trim().split("\n").at(-1)!).error).toMatchObject({ code: "world_damaged", retryable: false });
          expect(countOps(state)).toBe(ops);
        } else if (!present) {
          expect(r.code, r.stderr).toBe(1);
          expect(JSON.parse(r.stderr.trim().split("\n").at(-1)!).error).toMatchObject({ code: "out_of_bounds" });
        } else {
          expect(r.code, r.stderr).toBe(0);
          const op = (JSON.parse(r.stdout) as { operation: { operation_id: string; status: string; saved: boolean; counters: { written: number } } }).operation;
          expect(op).toMatchObject({ status: "applied", saved: true });
          if (op.counters.written > 0) applied.push({ slot, block: canonical(block), op: op.operation_id, undone: false });
          for (let dx = -1; dx <= 1; dx++) for (let dz = -1; dz <= 1; dz++) touched.add(`${chunk[0] + dx},${chunk[1] + dz}`);
        }
      } else {
        const standing = applied.filter((a) => !a.undone);
        const target = standing[step.undo % Math.max(1, standing.length)];
        if (target === undefined) continue;
        r = await mcb("undo", target.op, ...world, "--json");
        expect(r.code, r.stderr).toBe(0);
        expect((JSON.parse(r.stdout) as { operation: { status: string; saved: boolean } }).operation).toMatchObject({ status: "applied", saved: true });
        target.undone = true;
      }
      expect(r.stdout + r.stderr).not.toMatch(/\n\s+at .+:\d+:\d+/); // no stack trace reaches a person
      // Every file, and what every applied operation reports is on disk (read back by the independent reader).
      await check(save, files, { before, beforeSha, damaged, touched, applied }, false);
    }
    await check(save, files, { before, beforeSha, damaged, touched, applied }, true);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

function countOps(state: string): number {
  const path = join(state, "journal.db");
  if (!existsSync(path)) return 0;
  const db = new Database(path, { readonly: true });
  try {
    return (db.prepare("SELECT count(*) AS n FROM operations").get() as { n: number }).n;
  } finally {
    db.close();
  }
}

/** What a run knows to check the files against: their reading before any command, and what the commands did. */
interface Expected {
  readonly before: Record<string, StdlibRecords>;
  readonly beforeSha: readonly string[];
  readonly damaged: readonly boolean[];
  /** Chunks a build wrote or flagged for relighting ("cx,cz"). */
  readonly touched: ReadonlySet<string>;
  readonly applied: readonly { slot: number; block: string; undone: boolean }[];
}

/**
 * One reading by the independent reader, checked: a damaged file is byte-identical; a sound one is
 * still sound, with the same chunks and every chunk no build touched byte for byte as it was; the
 * chunks builds wrote hold, in the sections a box crosses, the original blocks plus the standing
 * builds' blocks, and every other section exactly as the game stored it. `withMcb` also reads
 * those sections through mcb.
 */
async function check(save: string, files: readonly string[], e: Expected, withMcb: boolean): Promise<void> {
  const standing = new Map<string, string>();
  for (const a of e.applied) {
    if (a.undone) continue;
    const { min, max } = boxOf(a.slot);
    for (let x = min.x; x <= max.x; x++) for (let y = min.y; y <= max.y; y++) for (let z = min.z; z <= max.z; z++) standing.set(`${x},${y},${z}`, a.block);
  }
  const slots = [...new Set(e.applied.map((a) => a.slot))].filter((slot) => !e.damaged[SLOTS[slot]!.file]);
  const wanted = sectionsOf(slots);
  const { records: now, chunks: read } = await stdlibBoth(regionDir(save), files, wanted);
  files.forEach((f, k) => {
    if (e.damaged[k]) {
      expect(sha(f), `${f} is damaged: not one byte of it may change`).toBe(e.beforeSha[k]);
      return;
    }
    expect(now[f]!.damaged, `${f} stays sound: no chunk cut short, no sector shared`).toEqual({});
    expect(Object.keys(now[f]!.entries).sort()).toEqual(Object.keys(e.before[f]!.entries).sort());
    for (const [index, digest] of Object.entries(e.before[f]!.payload)) {
      const i = Number(index);
      const key = `${k * 32 + (i & 31)},${i >> 5}`; // r.0.0 and r.1.0
      if (!e.touched.has(key)) expect(now[f]!.payload[index], `chunk ${key} was not written: its bytes are as they were`).toBe(digest);
    }
  });
  if (wanted.length === 0) return;
  const world = withMcb ? await AnvilWorld.open({ dir: save, registry, idleSaveMs: 0 }) : null;
  try {
    for (const [cx, cz, ys] of wanted) {
      const key = `${cx},${cz}`;
      const orig = originals[key]!,
        got = read[key]!;
      for (const [y, digest] of Object.entries(orig.digests))
        if (!ys.includes(Number(y))) expect(got.digests[y], `chunk ${key} section ${y}: no write there, stored as the game stored it`).toBe(digest);
      for (const sy of ys)
        for (let y = sy * 16; y < sy * 16 + 16; y++)
          for (let z = cz * 16; z < cz * 16 + 16; z++)
            for (let x = cx * 16; x < cx * 16 + 16; x++) {
              const want = standing.get(`${x},${y},${z}`) ?? stateIn(orig, x, y, z);
              const independent = stateIn(got, x, y, z);
              if (independent !== want) expect(`${x} ${y} ${z}: ${independent}`).toBe(`${x} ${y} ${z}: ${want}`);
              const ours = world?.stateAt(x, y, z) ?? want;
              if (ours !== want) expect(`mcb at ${x} ${y} ${z}: ${ours}`).toBe(`mcb at ${x} ${y} ${z}: ${want}`);
            }
    }
  } finally {
    await world?.close();
  }
}

describe("a region cut short (the issue's case: its last chunk truncated, as a crash or a full disk leaves it)", () => {
  it("a build into it is refused before any operation, naming the file and the cut chunk; nothing changes; its sound chunks read; the other region of the save builds; no stack trace", async () => {
    const root = mkdtempSync(join(tmpdir(), "mcb-cut-"));
    dirs.push(root);
    const save = join(root, "save");
    cpSync(template, save, { recursive: true });
    const files = FILES.map((f) => join(regionDir(save), f));
    const bytes = readFileSync(files[0]!);
    const [index, start, , end] = layout(bytes).at(-1)!;
    writeFileSync(files[0]!, bytes.subarray(0, Math.floor((start * 4096 + end) / 2))); // the last chunk loses the second half of its data
    const cut = { x: index & 31, z: index >> 5 };
    const digest = sha(files[0]!);
    const state = join(root, "state");
    const world = ["--world", `save:${save}`, "--state", state];
    const recipe = join(root, "hut.json");
    writeFileSync(recipe, JSON.stringify({ version: 1, operations: [{ type: "box", ...boxOf(0), block: "minecraft:stone_bricks" }] }));
    const refused = await mcb("build", recipe, ...world, "--json");
    expect(refused.code).toBe(1);
    const error = JSON.parse(refused.stderr.trim().split("\n").at(-1)!).error;
    expect(error).toMatchObject({
      code: "world_damaged",
      retryable: false,
      details: { reason: "corrupt_region", file: files[0], damaged: [{ chunk: cut, why: expect.stringMatching(/^truncated/) }], damaged_count: 1 },
    });
    expect(error.message).toMatch(new RegExp(`r\\.0\\.0\\.mca is damaged: chunk ${cut.x},${cut.z} \\(truncated.*restore the file from a backup, or repair it`));
    expect(refused.stdout + refused.stderr).not.toMatch(/\n\s+at .+:\d+:\d+/);
    expect(countOps(state)).toBe(0);
    expect(sha(files[0]!)).toBe(digest);
    expect(start).toBeGreaterThan(2);
    // Its sound chunks still read (inspect), the cut chunk is named as damaged.
    const seen = await mcb("inspect", "19", "90", "19", "21", "92", "21", ...world, "--json");
    expect(seen.code, seen.stderr).toBe(0);
    const damagedRead = await mcb("inspect", String(cut.x * 16), "60", String(cut.z * 16), String(cut.x * 16), "60", String(cut.z * 16), ...world, "--json");
    expect(damagedRead.code).toBe(1);
    expect(JSON.parse(damagedRead.stderr.trim().split("\n").at(-1)!).error).toMatchObject({
      code: "world_damaged",
      details: { reason: "corrupt_chunk", chunk: cut },
    });
    // The save's other region is sound: a build there is applied and saved, and the cut file is still untouched.
    writeFileSync(recipe, JSON.stringify({ version: 1, operations: [{ type: "box", ...boxOf(3), block: "minecraft:stone_bricks" }] }));
    const built = await mcb("build", recipe, ...world, "--json");
    expect(built.code, built.stderr).toBe(0);
    expect(JSON.parse(built.stdout).operation).toMatchObject({ status: "applied", saved: true, counters: { written: 27 } });
    expect(sha(files[0]!)).toBe(digest);
  });
});

describe("damaged region files are never written over (real region files, faults, builds and undos through the CLI)", () => {
  it("after any sequence of builds and undos: damaged files byte-identical, healthy ones sound and exact, nothing claimed that is not on disk (property)", async () => {
    await fc.assert(fc.asyncProperty(scenarioArb, run), { numRuns: 20 });
  }, 120_000);

  it("the property catches a planted allocator that trusts the file's length (new data over sectors an entry still claims)", async () => {
    const takenSectors = (RegionFile.prototype as unknown as { takenSectors: () => { used: Uint8Array; end: number } }).takenSectors;
    const spy = vi
      .spyOn(RegionFile.prototype as unknown as { takenSectors: () => { used: Uint8Array; end: number } }, "takenSectors")
      .mockImplementation(function (this: RegionFile) {
        const real = takenSectors.call(this);
        const fileSectors = Math.ceil((this as unknown as { fileBytes: number }).fileBytes / 4096);
        return { used: real.used.subarray(0, fileSectors), end: fileSectors };
      });
    try {
      // Every scenario here carries the fault the planted allocator mishandles (an entry claiming sectors past the end).
      const overclaimed = fc.record({
        file: fc.integer({ min: 0, max: 1 }),
        fault: fc.record({ kind: fc.constant("overclaim" as const), extra: fc.integer({ min: 1, max: 3 }) }),
        steps: scenarioArb.map((s) => s.steps),
      });
      const failure = await fc
        .assert(fc.asyncProperty(overclaimed, run), { numRuns: 60, endOnFailure: true })
        .then(() => null)
        .catch((e: unknown) => String((e as { cause?: unknown }).cause ?? e));
      expect(failure).toMatch(/stays sound|shares a sector|damaged|not written|mcb at|expected/);
    } finally {
      spy.mockRestore();
    }
  }, 180_000);
});
