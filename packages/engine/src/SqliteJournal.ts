import { operationKind } from "./OperationStatus.js";
import { randomBytes } from "node:crypto";
import { statSync } from "node:fs";
import { deflateRawSync, inflateRawSync } from "node:zlib";
import Database from "better-sqlite3";
import type { IndexHead, Journal, OperationFilter, OperationRecord, PartRecord, SavedState, SliceRecord, SliceResult, TouchKind, TouchList, UnsavedSlice } from "./Journal.js";
import { TOUCH_KIND_CODES } from "./Journal.js";
import type { PreparedPlan } from "./PreparedPlan.js";
import { decodePreparedPlan, encodePreparedPlan } from "./PreparedPlan.js";
import type { Box3 } from "@mcb/blocks";
import { MIGRATE_1_TO_2, MIGRATE_2_TO_3, MIGRATE_3_TO_4, SCHEMA, SCHEMA_VERSION } from "./SqliteSchema.js";
import { SqliteSavedWrites } from "./SqliteSavedWrites.js";

interface SliceRow {
  op_id: string;
  slice_no: number;
  start: number;
  end: number;
  intent: Buffer;
  written: Buffer | null;
  seq: number;
  min_x: number;
  min_y: number;
  min_z: number;
  max_x: number;
  max_y: number;
  max_z: number;
  digests: string | null;
}

function toSlice(r: SliceRow): SliceRecord {
  return {
    operationId: r.op_id,
    sliceNo: r.slice_no,
    start: r.start,
    end: r.end,
    intent: new Uint8Array(r.intent),
    written: r.written === null ? null : new Uint8Array(r.written),
    seq: r.seq,
    bounds: { minX: r.min_x, minY: r.min_y, minZ: r.min_z, maxX: r.max_x, maxY: r.max_y, maxZ: r.max_z },
    entityDigests: r.digests === null ? [] : (JSON.parse(r.digests) as [number, string][]),
  };
}

function toPart(body: string, mask: Buffer): PartRecord {
  const meta = JSON.parse(body) as Omit<PartRecord, "mask">;
  const m = new Int32Array(mask.length / 4);
  new Uint8Array(m.buffer).set(mask);
  return { ...meta, mask: m };
}

/**
 * Durable journal in one SQLite file: WAL, synchronous FULL (every commit is fsynced before the
 * call returns), one transaction per mutating call. Opening runs integrity-preserving migrations
 * only; an unknown newer schema is refused.
 */
export class SqliteJournal implements Journal {
  private readonly db: Database.Database;
  /** Path of the database file. */
  readonly file: string;
  private readonly s;
  private readonly id: string;
  private readonly saves: SqliteSavedWrites;

  constructor(file: string) {
    this.file = file;
    this.db = new Database(file);
    this.db.pragma("journal_mode = WAL");
    this.db.pragma("synchronous = FULL");
    this.db.pragma("foreign_keys = ON");
    const existing = this.db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'").pluck().get() !== undefined;
    let version = existing ? (this.db.prepare("SELECT value FROM meta WHERE key = 'schema'").pluck().get() as number | undefined) : undefined;
    if (version === 1) {
      this.db.transaction(() => this.db.exec(MIGRATE_1_TO_2)).immediate();
      version = 2;
    }
    if (version === 2) {
      this.db.transaction(() => this.db.exec(MIGRATE_2_TO_3)).immediate();
      version = 3;
    }
    if (version === 3) {
      this.db.transaction(() => this.db.exec(MIGRATE_3_TO_4)).immediate();
      version = 4;
    }
    if (version === undefined) {
      this.db.exec(SCHEMA);
      this.db.prepare("INSERT OR IGNORE INTO meta VALUES ('schema', ?), ('seq', 0)").run(SCHEMA_VERSION);
    } else if (version !== SCHEMA_VERSION) {
      this.db.close();
      throw new Error(`journal ${file} has schema ${version}; this mcb reads schema ${SCHEMA_VERSION}`);
    }
    const db = this.db;
    let id = db.prepare("SELECT value FROM settings WHERE key = 'journal_id'").pluck().get() as string | undefined;
    if (id === undefined) {
      id = randomBytes(8).toString("hex");
      db.prepare("INSERT OR IGNORE INTO settings VALUES ('journal_id', ?)").run(id);
      id = db.prepare("SELECT value FROM settings WHERE key = 'journal_id'").pluck().get() as string;
    }
    this.id = id;
    this.saves = new SqliteSavedWrites(db);
    this.s = {
      putPlan: db.prepare("INSERT INTO plans VALUES (?, ?, ?)"),
      getPlan: db.prepare("SELECT body FROM plans WHERE plan_id = ?").pluck(),
      insertOp: db.prepare("INSERT OR IGNORE INTO operations VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"),
      planUsed: db.prepare("SELECT 1 FROM operations WHERE plan_id = ? LIMIT 1").pluck(),
      headSeq: db.prepare("SELECT value FROM meta WHERE key = 'seq'").pluck(),
      updateOp: db.prepare("UPDATE operations SET status = ?, body = ? WHERE op_id = ?"),
      getOp: db.prepare("SELECT body FROM operations WHERE op_id = ?").pluck(),
      opByKey: db.prepare("SELECT body FROM operations WHERE project_id = ? AND idem_key = ?").pluck(),
      opByPlan: db.prepare("SELECT body FROM operations WHERE plan_id = ? ORDER BY created_at LIMIT 1").pluck(),
      list: db.prepare(
        `SELECT body FROM operations WHERE project_id = @project
           AND (@kind IS NULL OR kind = @kind) AND (@status IS NULL OR status = @status)
           AND (@part IS NULL OR part_id = @part OR op_id IN (SELECT value FROM json_each(@partOps)))
           AND (@afterAt IS NULL OR created_at < @afterAt OR (created_at = @afterAt AND op_id < @afterOp))
         ORDER BY created_at DESC, op_id DESC LIMIT @limit`,
      ).pluck(),
      unfinished: db.prepare("SELECT body FROM operations WHERE status IN ('queued', 'applying', 'recovery_required') ORDER BY created_at").pluck(),
      nextSeq: db.prepare("UPDATE meta SET value = value + 1 WHERE key = 'seq' RETURNING value").pluck(),
      confirm: db.prepare("UPDATE slices SET written = ?, seq = ?, digests = ? WHERE op_id = ? AND slice_no = ? AND written IS NULL"),
      intent: db.prepare("INSERT INTO slices VALUES (?, ?, ?, ?, ?, NULL, 0, ?, ?, ?, ?, ?, ?, NULL)"),
      slices: db.prepare("SELECT * FROM slices WHERE op_id = ? ORDER BY slice_no"),
      slicesAfter: db.prepare(
        "SELECT * FROM slices WHERE written IS NOT NULL AND seq > ? AND min_x <= ? AND max_x >= ? AND min_y <= ? AND max_y >= ? AND min_z <= ? AND max_z >= ? ORDER BY seq",
      ),
      touch: db.prepare("INSERT INTO touches VALUES (?, ?, ?, ?, ?, ?)"),
      touchesAfter: db.prepare(
        "SELECT seq, x, y, z, state, kind, rowid FROM touches WHERE seq > ? AND x BETWEEN ? AND ? AND y BETWEEN ? AND ? AND z BETWEEN ? AND ? ORDER BY seq, rowid",
      ).raw(),
      getSetting: db.prepare("SELECT value FROM settings WHERE key = ?").pluck(),
      setSetting: db.prepare("INSERT INTO settings VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value"),
      indexSeq: db.prepare("SELECT value FROM meta WHERE key = 'index_seq'").pluck(),
      setIndexSeq: db.prepare("INSERT INTO meta VALUES ('index_seq', ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value"),
      indexEntries: db.prepare("SELECT value FROM index_entries ORDER BY id").pluck(),
      addIndexEntry: db.prepare("INSERT INTO index_entries VALUES (?, ?)"),
      indexSection: db.prepare("SELECT body FROM index_sections WHERE cx = ? AND cy = ? AND cz = ?").pluck(),
      putIndexSection: db.prepare("INSERT INTO index_sections VALUES (?, ?, ?, ?) ON CONFLICT (cx, cy, cz) DO UPDATE SET body = excluded.body"),
      putPart: db.prepare("INSERT INTO parts VALUES (?, ?, ?, ?, ?)"),
      updatePart: db.prepare("UPDATE parts SET body = ?, mask = ? WHERE part_id = ?"),
      deletePart: db.prepare("DELETE FROM parts WHERE part_id = ?"),
      getPart: db.prepare("SELECT body, mask FROM parts WHERE part_id = ?"),
      listParts: db.prepare("SELECT body, mask FROM parts WHERE project_id = ? ORDER BY created_at, part_id"),
    };
  }

  putPlan(plan: PreparedPlan): void {
    this.s.putPlan.run(plan.planId, plan.projectId, encodePreparedPlan(plan));
  }

  getPlan(planId: string): PreparedPlan | null {
    const body = this.s.getPlan.get(planId) as Buffer | undefined;
    return body === undefined ? null : decodePreparedPlan(body);
  }

  createOperation(op: OperationRecord): "ok" | "duplicate_key" | "duplicate_plan" {
    // One IMMEDIATE transaction: the key and plan checks and the insert see the same journal.
    return this.db.transaction((): "ok" | "duplicate_key" | "duplicate_plan" => {
      if (this.s.opByKey.get(op.projectId, op.idempotencyKey) !== undefined) return "duplicate_key";
      if (this.s.planUsed.get(op.planId) !== undefined) return "duplicate_plan";
      const r = this.s.insertOp.run(op.operationId, op.projectId, op.idempotencyKey, op.planId, op.status, op.createdAt, JSON.stringify(op), operationKind(op), op.partId ?? null);
      if (r.changes !== 1) throw new Error(`operation ${op.operationId} exists`);
      return "ok";
    }).immediate();
  }

  getOperation(operationId: string): OperationRecord | null {
    return parseOp(this.s.getOp.get(operationId));
  }

  findOperationByKey(projectId: string, key: string): OperationRecord | null {
    return parseOp(this.s.opByKey.get(projectId, key));
  }

  findOperationByPlan(planId: string): OperationRecord | null {
    return parseOp(this.s.opByPlan.get(planId));
  }

  listOperations(projectId: string, filter: OperationFilter, limit: number): OperationRecord[] {
    const rows = this.s.list.all({
      project: projectId,
      kind: filter.kind ?? null,
      status: filter.status ?? null,
      part: filter.part?.partId ?? null,
      partOps: JSON.stringify(filter.part?.operationIds ?? []),
      afterAt: filter.after?.createdAt ?? null,
      afterOp: filter.after?.operationId ?? null,
      limit,
    }) as string[];
    return rows.map((b) => JSON.parse(b) as OperationRecord);
  }

  unfinishedOperations(): OperationRecord[] {
    return (this.s.unfinished.all() as string[]).map((b) => JSON.parse(b) as OperationRecord);
  }

  commit(op: OperationRecord, results: readonly SliceResult[], intents: readonly SliceRecord[]): number {
    return this.db.transaction((): number => {
      let seq = 0;
      for (const result of results) {
        seq = this.s.nextSeq.get() as number;
        const digests = result.entityDigests.length === 0 ? null : JSON.stringify(result.entityDigests);
        const r = this.s.confirm.run(Buffer.from(result.written), seq, digests, result.operationId, result.sliceNo);
        if (r.changes !== 1) throw new Error(`no open intent for slice ${result.sliceNo} of ${result.operationId}`);
        this.saves.record(result, seq);
      }
      for (const intent of intents) {
        const b = intent.bounds;
        this.s.intent.run(intent.operationId, intent.sliceNo, intent.start, intent.end, Buffer.from(intent.intent), b.minX, b.minY, b.minZ, b.maxX, b.maxY, b.maxZ);
      }
      const u = this.s.updateOp.run(op.status, JSON.stringify(op), op.operationId);
      if (u.changes !== 1) throw new Error(`unknown operation ${op.operationId}`);
      return seq;
    }).immediate();
  }

  slices(operationId: string): SliceRecord[] {
    return (this.s.slices.all(operationId) as SliceRow[]).map(toSlice);
  }

  slicesAfter(afterSeq: number, box: Box3): SliceRecord[] {
    const rows = this.s.slicesAfter.all(afterSeq, box.maxX, box.minX, box.maxY, box.minY, box.maxZ, box.minZ) as SliceRow[];
    return rows.map(toSlice);
  }

  addTouches(positions: Int32Array, states?: readonly (string | null)[], options: { readonly kind?: TouchKind; readonly eventCursor?: string } = {}): number {
    const kind = TOUCH_KIND_CODES[options.kind ?? "external"];
    return this.db.transaction((): number => {
      const seq = this.s.nextSeq.get() as number;
      for (let i = 0; i < positions.length; i += 3) this.s.touch.run(seq, positions[i]!, positions[i + 1]!, positions[i + 2]!, states?.[i / 3] ?? null, kind);
      if (options.eventCursor !== undefined) this.s.setSetting.run("event_cursor", options.eventCursor);
      return seq;
    }).immediate();
  }

  touchesAfter(afterSeq: number, box: Box3): TouchList {
    const rows = this.s.touchesAfter.all(afterSeq, box.minX, box.maxX, box.minY, box.maxY, box.minZ, box.maxZ) as [number, number, number, number, string | null, number, number][];
    const quads = new Float64Array(rows.length * 4);
    const kinds = new Uint8Array(rows.length);
    const order = new Float64Array(rows.length);
    rows.forEach((r, i) => {
      quads.set([r[0], r[1], r[2], r[3]], i * 4);
      kinds[i] = r[5];
      order[i] = r[6];
    });
    return { quads, states: rows.map((r) => r[4]), kinds, rows: order };
  }

  headSeq(): number {
    return this.s.headSeq.get() as number;
  }

  eventCursor(): string | null {
    return (this.s.getSetting.get("event_cursor") as string | undefined) ?? null;
  }

  saveEventCursor(cursor: string): void {
    this.s.setSetting.run("event_cursor", cursor);
  }

  markGap(eventCursor: string): number {
    return this.db.transaction((): number => {
      const seq = this.s.nextSeq.get() as number;
      this.s.setSetting.run("gap_seq", String(seq));
      this.s.setSetting.run("event_cursor", eventCursor);
      return seq;
    }).immediate();
  }

  lastGapSeq(): number {
    return Number((this.s.getSetting.get("gap_seq") as string | undefined) ?? 0);
  }

  journalId(): string {
    return this.id;
  }

  indexHead(): IndexHead {
    return { seq: (this.s.indexSeq.get() as number | undefined) ?? 0, entries: this.s.indexEntries.all() as string[] };
  }

  indexSections(keys: readonly string[]): Map<string, Uint32Array> {
    const out = new Map<string, Uint32Array>();
    for (const key of keys) {
      const [cx, cy, cz] = key.split(",").map(Number) as [number, number, number];
      const body = this.s.indexSection.get(cx, cy, cz) as Buffer | undefined;
      if (body === undefined) continue;
      const raw = inflateRawSync(body);
      if (raw.length !== 4096 * 4) throw new Error(`journal index section ${key}: ${raw.length} bytes, expected ${4096 * 4}`);
      const s = new Uint32Array(4096);
      new Uint8Array(s.buffer).set(raw);
      out.set(key, s);
    }
    return out;
  }

  saveIndex(seq: number, newEntries: readonly string[], sections: ReadonlyMap<string, Uint32Array>): void {
    const bodies = [...sections].map(([key, s]) => [key.split(",").map(Number), deflateRawSync(new Uint8Array(s.buffer, s.byteOffset, s.byteLength), { level: 1 })] as const);
    this.db.transaction(() => {
      let id = (this.db.prepare("SELECT count(*) FROM index_entries").pluck().get() as number) + 1;
      for (const e of newEntries) this.s.addIndexEntry.run(id++, e);
      for (const [[cx, cy, cz], body] of bodies) this.s.putIndexSection.run(cx!, cy!, cz!, body);
      this.s.setIndexSeq.run(seq);
    }).immediate();
  }

  putPart(part: PartRecord): void {
    const { mask, ...meta } = part;
    this.s.putPart.run(part.partId, part.projectId, part.createdAt, JSON.stringify(meta), Buffer.from(mask.buffer, mask.byteOffset, mask.byteLength));
  }

  updatePart(part: PartRecord): void {
    const { mask, ...meta } = part;
    const r = this.s.updatePart.run(JSON.stringify(meta), Buffer.from(mask.buffer, mask.byteOffset, mask.byteLength), part.partId);
    if (r.changes !== 1) throw new Error(`unknown part ${part.partId}`);
  }

  commitParts(added: readonly PartRecord[], updated: readonly PartRecord[], op?: OperationRecord): void {
    this.db.transaction(() => {
      for (const p of added) this.putPart(p);
      for (const p of updated) this.updatePart(p);
      if (op !== undefined && this.s.updateOp.run(op.status, JSON.stringify(op), op.operationId).changes !== 1) throw new Error(`unknown operation ${op.operationId}`);
    }).immediate();
  }

  deletePart(partId: string): void {
    this.s.deletePart.run(partId);
  }

  getPart(partId: string): PartRecord | null {
    const row = this.s.getPart.get(partId) as { body: string; mask: Buffer } | undefined;
    return row === undefined ? null : toPart(row.body, row.mask);
  }

  listParts(projectId: string): PartRecord[] {
    return (this.s.listParts.all(projectId) as { body: string; mask: Buffer }[]).map((r) => toPart(r.body, r.mask));
  }

  noteSaved(session: string, savedThrough: number): void {
    this.saves.noteSaved(session, savedThrough);
  }

  unsavedSlices(): UnsavedSlice[] {
    return this.saves.unsavedSlices();
  }

  settleUnsaved(slices: readonly UnsavedSlice[], lost: ReadonlyMap<string, readonly number[]>): void {
    this.saves.settleUnsaved(slices, lost);
  }

  savedState(operationId: string): SavedState {
    return this.saves.savedState(operationId);
  }

  lostWrites(operationId: string): number[] {
    return this.saves.lostWrites(operationId);
  }

  sizeBytes(): number {
    const size = (f: string): number => {
      try {
        return statSync(f).size;
      } catch {
        return 0;
      }
    };
    return size(this.file) + size(`${this.file}-wal`);
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}

function parseOp(body: unknown): OperationRecord | null {
  return typeof body === "string" ? (JSON.parse(body) as OperationRecord) : null;
}
