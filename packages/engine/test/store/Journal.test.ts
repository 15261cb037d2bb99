import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import Database from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { freshPostgresJournal } from "@mcb/property-tests";
import { openJournal, type Journal, type OperationRecord } from "../../src/index.js";
import { decodePlanPositions, decodePreparedPlan, encodePreparedPlan, preparedPlanHash, type PreparedPlan } from "../../src/core/PreparedPlan.js";
import { maskCount, packedRunsOf, withoutMask, withPackedMask } from "../../src/core/PackedMask.js";
import { packRuns, RunPacker } from "../../src/core/PackedRuns.js";
import { boundsOf } from "@mcb/blocks";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function tempFile(): string {
  const d = mkdtempSync(join(tmpdir(), "mcb-journal-test-"));
  dirs.push(d);
  return join(d, "journal.db");
}

function plan(id: string, n: number, project = "p"): PreparedPlan {
  const content = {
    projectId: project,
    kind: "build" as const,
    undoOf: null,
    partId: null,
    worldId: "w",
    epoch: 1,
    sourceHash: "ab".repeat(32),
    states: ["minecraft:air", "minecraft:stone"],
    digests: ["cd".repeat(32)],
    pos: Int32Array.from({ length: n * 3 }, (_, i) => (i % 3 === 1 ? 64 : Math.floor(i / 3))),
    before: new Uint32Array(n),
    beforeDigest: new Int32Array(n).fill(-1),
    after: new Uint32Array(n).fill(1),
    afterData: Int32Array.from({ length: n }, (_, i) => (i === 1 ? 0 : -1)),
    data: n > 1 ? [Uint8Array.from([10, 0, 0, 1, 0, 1, 0x61, 5, 0])] : [],
    pairs: n >= 2 ? Uint32Array.from([0]) : new Uint32Array(0),
    depPos: Int32Array.from([0, 63, 0]),
    depState: Uint32Array.from([1]),
    depDigest: Int32Array.from([0]),
    unchanged: 2,
    filtered: 1,
  };
  return { ...content, planId: id, planHash: preparedPlanHash(content), createdAt: 1000, expiresAt: 2000, preparedSeq: 7 };
}

function op(id: string, planId: string, key: string, status: OperationRecord["status"] = "queued"): OperationRecord {
  return {
    operationId: id,
    projectId: "p",
    planId,
    planHash: "h",
    idempotencyKey: key,
    initiator: { playerId: "u", role: "agent" },
    kind: "build",
    undoOf: null,
    status,
    createdAt: 1,
    updatedAt: 1,
    counters: { total: 4, written: 0, skipped: 0, conflicts: 0, slicesDone: 0, slicesTotal: 2 },
    conflictSample: [],
    error: null,
    undoable: true,
    undoneBy: null,
  };
}

const box = { minX: 0, minY: 64, minZ: 0, maxX: 1, maxY: 64, maxZ: 0 };

/** A journal kind: a new journal, and how to reopen it as a restarted process would. */
function reopenable(target: string): { journal: Journal; reopen: () => Journal } {
  let current = openJournal(target);
  return {
    journal: current,
    reopen: () => {
      current.close();
      current = openJournal(target);
      return current;
    },
  };
}

const kinds: [string, () => { journal: Journal; reopen: () => Journal }][] = [
  [
    "memory (SQLite)",
    () => {
      const j = openJournal(":memory:");
      return { journal: j, reopen: () => j };
    },
  ],
  ["sqlite", () => reopenable(tempFile())],
  ["postgres", () => reopenable(freshPostgresJournal())],
];

describe.each(kinds)("%s journal contract", (_name, make) => {
  it("stores plans, operations, slices, touches and parts, and keeps them across a reopen", () => {
    const { journal, reopen } = make();
    journal.putPlan(plan("pl1", 4));
    expect(journal.createOperation(op("o1", "pl1", "k1"))).toBe("ok");
    expect(journal.createOperation(op("o2", "pl1", "k1"))).toBe("duplicate_key");
    expect(journal.createOperation(op("o2", "pl1", "k2"))).toBe("duplicate_plan");
    expect(journal.getOperation("o2")).toBeNull();
    expect(journal.headSeq()).toBe(0);
    const intent = (sliceNo: number, start: number) => ({
      operationId: "o1",
      sliceNo,
      start,
      end: start + 2,
      intent: Uint8Array.from([3]),
      written: null,
      seq: 0,
      bounds: { minX: start, minY: 64, minZ: 0, maxX: start + 1, maxY: 64, maxZ: 0 },
      entityDigests: [],
    });
    expect(journal.commit({ ...op("o1", "pl1", "k1"), status: "applying" }, [], [intent(0, 0)])).toBe(0);
    const seq1 = journal.commit(
      op("o1", "pl1", "k1", "applying"),
      [{ operationId: "o1", sliceNo: 0, written: Uint8Array.from([1]), entityDigests: [[0, "ef".repeat(32)]] }],
      [intent(1, 2)],
    );
    expect(seq1).toBeGreaterThan(0);
    expect(journal.headSeq()).toBe(seq1);
    const touchSeq = journal.addTouches(Int32Array.from([1, 64, 0, 9, 64, 9]), ["minecraft:glass", null]);
    expect(touchSeq).toBeGreaterThan(seq1);
    const uncertainSeq = journal.addTouches(Int32Array.from([0, 64, 0]));
    expect(journal.headSeq()).toBe(uncertainSeq);
    expect(() => journal.commit(op("o1", "pl1", "k1"), [{ operationId: "o1", sliceNo: 0, written: new Uint8Array(1), entityDigests: [] }], [])).toThrow();

    const j2 = reopen();
    expect(j2.getPlan("pl1")).toEqual(plan("pl1", 4));
    expect(j2.getPlanPositions("pl1")).toEqual(plan("pl1", 4).pos); // the positions alone, nothing else decoded
    expect(j2.getPlanPositions("nope")).toBeNull();
    expect(j2.findOperationByKey("p", "k1")?.operationId).toBe("o1");
    expect(j2.findOperationByPlan("pl1")?.status).toBe("applying");
    expect(j2.unfinishedOperations().map((o) => o.operationId)).toEqual(["o1"]);
    const slices = j2.slices("o1");
    expect(slices.map((s) => [s.sliceNo, s.written === null ? null : [...s.written], s.seq])).toEqual([
      [0, [1], seq1],
      [1, null, 0],
    ]);
    expect(slices[0]!.entityDigests).toEqual([[0, "ef".repeat(32)]]);
    expect(j2.slicesAfter(0, box).map((s) => s.sliceNo)).toEqual([0]);
    expect(j2.slicesAfter(seq1, box)).toEqual([]);
    expect(j2.slicesAfter(0, { ...box, minX: 5, maxX: 6 })).toEqual([]);
    expect(j2.headSeq()).toBe(uncertainSeq);
    const touched = j2.touchesAfter(0, box);
    expect([...touched.quads]).toEqual([touchSeq, 1, 64, 0, uncertainSeq, 0, 64, 0]);
    expect(touched.states).toEqual(["minecraft:glass", null]);
    expect([...j2.touchesAfter(uncertainSeq, box).quads]).toEqual([]);
    j2.putPart({ partId: "part1", projectId: "p", name: "wall", operationId: "o1", createdAt: 5, bounds: box, mask: Int32Array.from([0, 64, 0, 1, 64, 0]) });
    const j3 = reopen();
    expect(j3.getPart("part1")?.mask).toEqual(Int32Array.from([0, 64, 0, 1, 64, 0]));
    expect(j3.listParts("p").map((p) => p.name)).toEqual(["wall"]);
    expect(j3.listOperations("p", {}, 5).map((o) => o.operationId)).toEqual(["o1"]);
    expect(j3.sizeBytes()).toBeGreaterThan(0);
    j3.close();
  });
});

describe.each(kinds)("%s journal listing", (_name, make) => {
  it("lists operations newest first, filtered by kind, status and part, paged after a given operation", () => {
    const { journal } = make();
    const at = (o: OperationRecord, createdAt: number, extra: Partial<OperationRecord> = {}): OperationRecord => ({ ...o, createdAt, ...extra });
    journal.createOperation(at(op("a", "p1", "k1", "applied"), 10, { partId: null }));
    journal.createOperation(at(op("b", "p2", "k2", "conflict"), 20, { partId: "part1" }));
    journal.createOperation(at(op("c", "p3", "k3", "applied"), 20, { kind: "undo", undoOf: "b", partId: "part1" }));
    journal.createOperation(at(op("d", "p4", "k4", "applied"), 30));
    journal.createOperation({ ...at(op("e", "p5", "k5"), 40), projectId: "other" });
    const ids = (f: Parameters<Journal["listOperations"]>[1], limit = 10) => journal.listOperations("p", f, limit).map((o) => o.operationId);
    expect(ids({})).toEqual(["d", "c", "b", "a"]);
    expect(ids({}, 2)).toEqual(["d", "c"]);
    expect(ids({ after: { createdAt: 20, operationId: "c" } })).toEqual(["b", "a"]);
    expect(ids({ kind: "undo" })).toEqual(["c"]);
    expect(ids({ status: "applied" })).toEqual(["d", "c", "a"]);
    expect(ids({ part: { partId: "part1", operationIds: ["a"] } })).toEqual(["c", "b", "a"]);
    expect(ids({ status: "applied", part: { partId: "part1", operationIds: ["a"] } })).toEqual(["c", "a"]);
    // A part defined from several operations (a batch) lists each of them.
    expect(ids({ part: { partId: "none", operationIds: ["a", "d"] } })).toEqual(["d", "a"]);
    journal.commit({ ...at(op("a", "p1", "k1"), 10), status: "failed" }, [], []);
    expect(ids({ status: "applied" })).toEqual(["d", "c"]);
  });
});

/** Two processes' journals on one store: a SQLite file, or one PostgreSQL journal. */
const shared: [string, () => string][] = [
  ["sqlite", () => tempFile()],
  ["postgres", () => freshPostgresJournal()],
];

describe.each(shared)("%s journal shared by two processes", (_name, target) => {
  it("one idempotency key, one claimant, one index: what one commits the other sees", () => {
    const where = target();
    let now = 1000;
    const a = openJournal(where, { now: () => now });
    const b = openJournal(where, { now: () => now });
    expect(a.journalId()).toBe(b.journalId());
    a.putPlan(plan("pl1", 4));
    b.putPlan(plan("pl2", 4));
    expect(a.createOperation(op("o1", "pl1", "same"))).toBe("ok");
    expect(b.createOperation(op("o2", "pl2", "same"))).toBe("duplicate_key");
    expect(b.createOperation(op("o2", "pl1", "other"))).toBe("duplicate_plan");
    expect(b.findOperationByKey("p", "same")?.operationId).toBe("o1");
    // Sequence numbers are shared and keep commit order across both.
    const s1 = a.addTouches(Int32Array.from([0, 64, 0]));
    const s2 = b.addTouches(Int32Array.from([1, 64, 0]));
    expect(s2).toBe(s1 + 1);
    expect(a.headSeq()).toBe(s2);
    // A claim has one holder until it is released or expires.
    expect(a.claim("recovery:o1", "bridge-a", 5000)).toBe(true);
    expect(b.claim("recovery:o1", "bridge-b", 5000)).toBe(false);
    expect(b.claimHolder("recovery:o1")).toBe("bridge-a");
    expect(a.claim("recovery:o1", "bridge-a", 5000)).toBe(true); // renewal
    now += 5001;
    expect(b.claimHolder("recovery:o1")).toBeNull();
    expect(b.claim("recovery:o1", "bridge-b", 5000)).toBe(true);
    a.releaseClaim("recovery:o1", "bridge-a"); // not the holder: no effect
    expect(a.claimHolder("recovery:o1")).toBe("bridge-b");
    b.releaseClaim("recovery:o1", "bridge-b");
    expect(a.claim("recovery:o1", "bridge-a", 5000)).toBe(true);
    // The standing-write index is saved by compare-and-set on its sequence.
    const section = new Uint32Array(4096).fill(1);
    expect(a.saveIndex(0, s1, ["minecraft:stone"], new Map([["0,4,0", section]]))).toBe(true);
    expect(b.saveIndex(0, s2, ["minecraft:glass"], new Map())).toBe(false);
    expect(b.indexHead()).toEqual({ seq: s1, entries: ["minecraft:stone"] });
    expect(b.saveIndex(s1, s2, ["minecraft:glass"], new Map())).toBe(true);
    expect(a.indexHead()).toEqual({ seq: s2, entries: ["minecraft:stone", "minecraft:glass"] });
    expect([...a.indexSections(["0,4,0"]).get("0,4,0")!.slice(0, 2)]).toEqual([1, 1]);
    a.close();
    b.close();
  });
});

describe("SQLite journal file", () => {
  it("migrates a schema-1 journal: old touches become uncertain, old operations keep their kind", () => {
    const file = tempFile();
    const db = new Database(file);
    db.exec(`
      CREATE TABLE meta (key TEXT PRIMARY KEY, value INTEGER NOT NULL) STRICT;
      CREATE TABLE plans (plan_id TEXT PRIMARY KEY, project_id TEXT NOT NULL, body BLOB NOT NULL) STRICT;
      CREATE TABLE operations (op_id TEXT PRIMARY KEY, project_id TEXT NOT NULL, idem_key TEXT NOT NULL, plan_id TEXT NOT NULL,
        status TEXT NOT NULL, created_at INTEGER NOT NULL, body TEXT NOT NULL, UNIQUE (project_id, idem_key)) STRICT;
      CREATE INDEX operations_plan ON operations (plan_id);
      CREATE INDEX operations_recent ON operations (project_id, created_at);
      CREATE TABLE slices (op_id TEXT NOT NULL, slice_no INTEGER NOT NULL, start INTEGER NOT NULL, end INTEGER NOT NULL,
        intent BLOB NOT NULL, written BLOB, seq INTEGER NOT NULL, min_x INTEGER NOT NULL, min_y INTEGER NOT NULL, min_z INTEGER NOT NULL,
        max_x INTEGER NOT NULL, max_y INTEGER NOT NULL, max_z INTEGER NOT NULL, digests TEXT, PRIMARY KEY (op_id, slice_no)) STRICT, WITHOUT ROWID;
      CREATE TABLE touches (seq INTEGER NOT NULL, x INTEGER NOT NULL, y INTEGER NOT NULL, z INTEGER NOT NULL) STRICT;
      CREATE TABLE parts (part_id TEXT PRIMARY KEY, project_id TEXT NOT NULL, created_at INTEGER NOT NULL, body TEXT NOT NULL, mask BLOB NOT NULL) STRICT;
      INSERT INTO meta VALUES ('schema', 1), ('seq', 3);
      INSERT INTO touches VALUES (3, 1, 64, 0);
    `);
    const undo = { ...op("u1", "pl9", "k9", "applied"), kind: "undo" as const };
    db.prepare("INSERT INTO operations VALUES (?, ?, ?, ?, ?, ?, ?)").run("u1", "p", "k9", "pl9", "applied", 1, JSON.stringify(undo));
    db.close();
    const j = openJournal(file);
    expect(j.headSeq()).toBe(3);
    expect(j.touchesAfter(0, box).states).toEqual([null]);
    expect(j.listOperations("p", { kind: "undo" }, 5).map((o) => o.operationId)).toEqual(["u1"]);
    expect(j.createOperation(op("o2", "pl9", "k10"))).toBe("duplicate_plan");
    j.close();
    const again = openJournal(file);
    expect(again.headSeq()).toBe(3);
    again.close();
  });

  it("refuses a journal written by another schema version", () => {
    const file = tempFile();
    openJournal(file).close();
    const db = new Database(file);
    db.prepare("UPDATE meta SET value = 99 WHERE key = 'schema'").run();
    db.close();
    expect(() => openJournal(file)).toThrow(/schema 99/);
  });

  it("keeps its data in WAL mode (synchronous FULL is set per connection)", () => {
    const file = tempFile();
    openJournal(file).close();
    const db = new Database(file);
    expect(db.pragma("journal_mode", { simple: true })).toBe("wal");
    db.close();
  });
});

describe("prepared plan codec", () => {
  it("round-trips values and bytes; the hash covers every content field", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 0, max: 39 }), (n, flip) => {
        const p = plan("x", n);
        const bytes = encodePreparedPlan(p);
        const back = decodePreparedPlan(bytes);
        expect(back).toEqual(p);
        expect(Buffer.compare(encodePreparedPlan(back), bytes)).toBe(0);
        expect(preparedPlanHash(back)).toBe(p.planHash);
        if (n > 0) {
          const after = p.after.slice();
          after[flip % n] = 0;
          expect(preparedPlanHash({ ...p, after })).not.toBe(p.planHash);
        }
        expect(preparedPlanHash({ ...p, epoch: 2 })).not.toBe(p.planHash);
      }),
      { numRuns: 100 },
    );
  });

  it("stores arrays packed when runs are smaller and raw when not; plans stored raw (before 12-06) still read", () => {
    const ints = (n: number, regular: boolean) =>
      fc.array(regular ? fc.constantFrom(0, 1) : fc.integer({ min: -2e9, max: 2e9 }), { minLength: n, maxLength: n });
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 300 }).chain((n) =>
          fc.record({
            n: fc.constant(n),
            regular: fc.boolean(),
            pos: fc
              .boolean()
              .chain((box) =>
                box
                  ? fc.constant(Array.from({ length: n * 3 }, (_, i) => [((i / 3) % 7) | 0, 64 + ((i / 21) | 0), ((i / 3 / 7) % 3) | 0][i % 3]!))
                  : ints(n * 3, false),
              ),
            before: ints(n, true),
            after: ints(n, false),
          }),
        ),
        ({ n, regular, pos, before, after }) => {
          const base = plan("x", n);
          const content = {
            ...base,
            pos: Int32Array.from(pos),
            before: Uint32Array.from(before),
            after: Uint32Array.from(regular ? before : after),
          };
          const p = { ...content, planHash: preparedPlanHash(content) };
          const bytes = encodePreparedPlan(p);
          const back = decodePreparedPlan(bytes);
          expect(back).toEqual(p);
          expect(preparedPlanHash(back)).toBe(p.planHash);
          expect(decodePreparedPlan(rawEncoding(p))).toEqual(p);
        },
      ),
      { numRuns: 200 },
    );
    // A box of 100,000 positions (1,000 rows): two runs a row, some 32 KB instead of 2.8 MB.
    const n = 100_000;
    const box = plan("box", n);
    const boxPos = Int32Array.from({ length: n * 3 }, (_, i) => [((i / 3) % 100) | 0, 64 + ((i / 3 / 10_000) | 0), ((i / 3 / 100) | 0) % 100][i % 3]!);
    const packed = encodePreparedPlan({ ...box, pos: boxPos });
    expect(packed.length).toBeLessThan(40_000);
    expect(rawEncoding({ ...box, pos: boxPos }).length).toBeGreaterThan(2_000_000);
    expect(decodePreparedPlan(packed).pos).toEqual(boxPos);
    expect(decodePlanPositions(packed)).toEqual(boxPos);
  });

  it("stores part masks packed (a box: two runs a row) or raw, and reads masks stored raw before 12-06", () => {
    const file = tempFile();
    const j = openJournal(file);
    const row = (n: number) => Int32Array.from({ length: n * 3 }, (_, i) => [i / 3 / 1, 64, 0][i % 3]! | 0);
    const masks = [
      new Int32Array(0),
      Int32Array.from([0, 64, 0, 1, 64, 0]),
      Int32Array.from([5, -64, 9, -3, 319, 29_999_984, 7, 7, 7, 0, 0, 0]),
      Int32Array.from({ length: 100 * 100 * 3 * 10 }, (_, i) => [((i / 3) % 100) | 0, 64 + ((i / 3 / 10_000) | 0), ((i / 3 / 100) | 0) % 100][i % 3]!),
      row(2_000),
    ];
    masks.forEach((mask, k) =>
      j.putPart({
        partId: `part${k}`,
        projectId: "p",
        name: `p${k}`,
        operationId: "o1",
        createdAt: k,
        bounds: { minX: 0, minY: 0, minZ: 0, maxX: 0, maxY: 0, maxZ: 0 },
        mask,
      }),
    );
    masks.forEach((mask, k) => expect(j.getPart(`part${k}`)!.mask).toEqual(mask));
    expect(j.listParts("p").map((p) => p.mask.length)).toEqual(masks.map((m) => m.length));
    j.close();
    // 100,000 positions of a box: a few kilobytes of the journal file, not 1.2 MB
    expect(statSync(file).size).toBeLessThan(400_000);
  });

  it("a packed mask stays packed until read: its count without decoding, stored as it is, the same triples when read", () => {
    const file = tempFile();
    const j = openJournal(file);
    const box = Int32Array.from({ length: 50 * 50 * 40 * 3 }, (_, i) => [((i / 3) % 50) | 0, 64 + ((i / 3 / 2500) | 0), ((i / 3 / 50) | 0) % 50][i % 3]!);
    const runs = packRuns(box, 3, true)!;
    const meta = { partId: "big", projectId: "p", name: "big", operationId: "o1", createdAt: 1, bounds: boundsOf(box)! };
    const record = withPackedMask(meta, runs, box.length / 3);
    expect(maskCount(record)).toBe(100_000);
    expect(packedRunsOf(record)).toBe(runs);
    expect(record.mask).toEqual(box); // decoded when read
    // a packed record whose runs would not decode: counted and stored without reading them
    const broken = withPackedMask({ ...meta, partId: "broken", name: "broken" }, Int32Array.from([2, 1, 1, 1]), 5);
    expect(maskCount(broken)).toBe(5);
    expect(() => broken.mask).toThrow(/runs/);
    expect(Object.keys(withoutMask(broken)).sort()).toEqual(Object.keys(meta).sort());
    j.putPart(withPackedMask(meta, runs, box.length / 3));
    const read = j.getPart("big")!;
    expect(maskCount(read)).toBe(100_000);
    expect(packedRunsOf(read)).toEqual(runs);
    expect(read.mask).toEqual(box);
    expect(j.listParts("p").map(maskCount)).toEqual([100_000]);
    // a packed record whose runs are no smaller than its triples (gaps of one and two blocks in turn) is stored raw
    const sparse = Int32Array.from({ length: 50 * 3 }, (_, i) => [Math.floor((3 * ((i / 3) | 0)) / 2), 64, 0][i % 3]!);
    const packer = new RunPacker(3, true);
    for (let i = 0; i < sparse.length; i += 3) packer.push(sparse.subarray(i, i + 3));
    const everyOther = packer.finish();
    expect(everyOther.length).toBeGreaterThanOrEqual(sparse.length);
    j.putPart(withPackedMask({ ...meta, partId: "sparse", name: "sparse", bounds: boundsOf(sparse)! }, everyOther, 50));
    const sparseRead = j.getPart("sparse")!;
    expect(packedRunsOf(sparseRead)).toBeNull();
    expect(sparseRead.mask).toEqual(sparse);
    j.close();
  });

  it("rejects trailing bytes and unknown formats", () => {
    const bytes = encodePreparedPlan(plan("x", 2));
    expect(() => decodePreparedPlan(Buffer.concat([bytes, Buffer.alloc(4)]))).toThrow(/trailing/);
    const bad = Buffer.from(bytes.toString("latin1").replace("mcb-prepared/3", "mcb-prepared/9"), "latin1");
    expect(() => decodePreparedPlan(bad)).toThrow(/format/);
  });
});

describe("PostgreSQL statements", () => {
  it("numbers placeholders outside quoted text only, and never shows a password", async () => {
    const { numberPlaceholders, redactUrl } = await import("../../src/store/PostgresWire.js");
    expect(numberPlaceholders(`SELECT '?', "a?b", ? FROM t WHERE a = ? AND b = 'x''?'`)).toBe(`SELECT '?', "a?b", $1 FROM t WHERE a = $2 AND b = 'x''?'`);
    expect(redactUrl("postgres://mcb:s3cret@127.0.0.1:5432/w")).toBe("postgres://mcb:***@127.0.0.1:5432/w");
  });

  it("a checked write that changes the wrong rows fails inside the server: the whole transaction rolls back", () => {
    const j = openJournal(freshPostgresJournal());
    j.putPlan(plan("pl1", 4));
    expect(j.createOperation(op("o1", "pl1", "k1"))).toBe("ok");
    const before = j.headSeq();
    // A result for a slice that has no open intent: the confirm changes no row, so nothing of the commit stays.
    expect(() =>
      j.commit({ ...op("o1", "pl1", "k1"), status: "applied" }, [{ operationId: "o1", sliceNo: 9, written: Uint8Array.from([1]), entityDigests: [] }], []),
    ).toThrow(/no open intent for slice 9/);
    expect(j.headSeq()).toBe(before);
    expect(j.getOperation("o1")?.status).toBe("queued");
    j.close();
  });
});

/** A plan as journals stored it before 12-06: the header without `packed`, then every array's bytes as they are. */
function rawEncoding(p: PreparedPlan): Buffer {
  const packed = encodePreparedPlan(p);
  const len = packed.readUInt32LE(0);
  const outer = JSON.parse(packed.subarray(4, 4 + len).toString("utf8")) as Record<string, unknown>;
  delete outer.packed;
  const header = Buffer.from(JSON.stringify(outer), "utf8");
  const arrays = [p.pos, p.before, p.beforeDigest, p.after, p.afterData, p.pairs, p.depPos, p.depState, p.depDigest, ...p.data];
  const size = Buffer.alloc(4);
  size.writeUInt32LE(header.length);
  return Buffer.concat([size, header, ...arrays.map((a) => Buffer.from(a.buffer, a.byteOffset, a.byteLength))]);
}
