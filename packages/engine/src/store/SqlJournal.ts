import type { Box3 } from "@mcb/blocks";
import type {
  IndexHead,
  Journal,
  OperationFilter,
  OperationRecord,
  PartRecord,
  SavedState,
  SliceRecord,
  SliceResult,
  TouchKind,
  TouchList,
  UnsavedSlice,
} from "./Journal.js";
import { TOUCH_KIND_CODES } from "./Journal.js";
import type { PreparedPlan } from "../core/PreparedPlan.js";
import { ClaimStore } from "./ClaimStore.js";
import { IndexStore } from "./IndexStore.js";
import { migrate } from "./Migrations.js";
import { OperationStore } from "./OperationStore.js";
import { PartStore } from "./PartStore.js";
import { PlanStore } from "./PlanStore.js";
import { SavedWriteStore } from "./SavedWriteStore.js";
import { SequenceStore } from "./SequenceStore.js";
import { SettingStore } from "./SettingStore.js";
import { SliceStore } from "./SliceStore.js";
import type { SqlDb } from "./SqlDb.js";
import { TouchStore } from "./TouchStore.js";

/**
 * The journal over one SQL store (SQLite embedded, PostgreSQL shared): each concept is a small
 * repository on the same database, and every mutating call is one transaction under the writer
 * lock, durable when it returns. Opening brings the schema up to date (`migrate`).
 */
export class SqlJournal implements Journal {
  private readonly plans: PlanStore;
  private readonly operations: OperationStore;
  private readonly sliceStore: SliceStore;
  private readonly touches: TouchStore;
  private readonly sequence: SequenceStore;
  private readonly settings: SettingStore;
  private readonly index: IndexStore;
  private readonly parts: PartStore;
  private readonly saves: SavedWriteStore;
  private readonly claims: ClaimStore;
  private readonly id: string;

  private readonly now: () => number;

  /** `now`: the clock claims expire by (default `Date.now`). */
  constructor(
    private readonly db: SqlDb,
    options: { readonly now?: () => number } = {},
  ) {
    this.now = options.now ?? Date.now;
    try {
      migrate(db, db.where);
      this.settings = new SettingStore(db);
      this.id = db.transaction(() => this.settings.journalId());
    } catch (e) {
      db.close();
      throw e;
    }
    this.plans = new PlanStore(db);
    this.operations = new OperationStore(db);
    this.sliceStore = new SliceStore(db);
    this.touches = new TouchStore(db);
    this.sequence = new SequenceStore(db);
    this.index = new IndexStore(db);
    this.parts = new PartStore(db);
    this.saves = new SavedWriteStore(db);
    this.claims = new ClaimStore(db);
  }

  /** Which kind of store this journal is on. */
  get dialect(): SqlDb["dialect"] {
    return this.db.dialect;
  }

  /** The store as messages name it: a file, `:memory:`, or a URL without its password. */
  get where(): string {
    return this.db.where;
  }

  putPlan(plan: PreparedPlan): void {
    this.plans.put(plan);
  }

  getPlan(planId: string): PreparedPlan | null {
    return this.plans.get(planId);
  }

  getPlanPositions(planId: string): Int32Array | null {
    return this.plans.positions(planId);
  }

  createOperation(op: OperationRecord): "ok" | "duplicate_key" | "duplicate_plan" {
    // Under the writer lock: the key and plan checks and the insert see the same journal.
    return this.db.transaction((): "ok" | "duplicate_key" | "duplicate_plan" => {
      if (this.operations.byKey(op.projectId, op.idempotencyKey) !== null) return "duplicate_key";
      if (this.planInUse(op.planId)) return "duplicate_plan";
      if (!this.operations.insert(op)) throw new Error(`operation ${op.operationId} exists`);
      return "ok";
    });
  }

  /** Whether an operation already uses the plan (a hook for the model suite's planted bug). */
  protected planInUse(planId: string): boolean {
    return this.operations.planUsed(planId);
  }

  getOperation(operationId: string): OperationRecord | null {
    return this.operations.get(operationId);
  }

  findOperationByKey(projectId: string, key: string): OperationRecord | null {
    return this.operations.byKey(projectId, key);
  }

  findOperationByPlan(planId: string): OperationRecord | null {
    return this.operations.byPlan(planId);
  }

  listOperations(projectId: string, filter: OperationFilter, limit: number): OperationRecord[] {
    return this.operations.list(projectId, filter, limit);
  }

  unfinishedOperations(): OperationRecord[] {
    return this.operations.unfinished();
  }

  commit(op: OperationRecord, results: readonly SliceResult[], intents: readonly SliceRecord[]): number {
    return this.db.transaction((): number => {
      const last = results.length === 0 ? 0 : this.sequence.take(results.length);
      const seqs = results.map((_, k) => last - results.length + 1 + k);
      this.sliceStore.confirmAll(results, seqs);
      this.saves.recordAll(results, seqs);
      this.sliceStore.addIntents(intents);
      this.operations.update(op);
      return last;
    });
  }

  slices(operationId: string): SliceRecord[] {
    return this.sliceStore.forOperation(operationId);
  }

  slicesAfter(afterSeq: number, box: Box3): SliceRecord[] {
    return this.sliceStore.after(afterSeq, box);
  }

  addTouches(
    positions: Int32Array,
    states?: readonly (string | null)[],
    options: { readonly kind?: TouchKind; readonly eventCursor?: string; readonly fromCursor?: string | null } = {},
  ): number {
    const kind = TOUCH_KIND_CODES[options.kind ?? "external"];
    return this.db.transaction((): number => {
      if (!this.cursorStill(options.fromCursor)) return 0;
      const seq = this.sequence.next();
      this.touches.add(seq, positions, states, kind);
      if (options.eventCursor !== undefined) this.settings.set("event_cursor", options.eventCursor);
      return seq;
    });
  }

  /** Inside a transaction: whether the stored event cursor is still `from` (undefined: not asked). */
  private cursorStill(from: string | null | undefined): boolean {
    return from === undefined || this.settings.get("event_cursor") === from;
  }

  touchesAfter(afterSeq: number, box: Box3): TouchList {
    return this.touches.after(afterSeq, box);
  }

  headSeq(): number {
    return this.sequence.head();
  }

  eventCursor(): string | null {
    return this.settings.get("event_cursor");
  }

  saveEventCursor(cursor: string, fromCursor?: string | null): boolean {
    return this.db.transaction((): boolean => {
      if (!this.cursorStill(fromCursor)) return false;
      this.settings.set("event_cursor", cursor);
      return true;
    });
  }

  markGap(eventCursor: string, fromCursor?: string | null): number {
    return this.db.transaction((): number => {
      if (!this.cursorStill(fromCursor)) return 0;
      const seq = this.sequence.next();
      this.settings.set("gap_seq", String(seq));
      this.settings.set("event_cursor", eventCursor);
      return seq;
    });
  }

  lastGapSeq(): number {
    return Number(this.settings.get("gap_seq") ?? 0);
  }

  journalId(): string {
    return this.id;
  }

  indexHead(): IndexHead {
    return this.db.transaction(() => this.index.head());
  }

  indexSections(keys: readonly string[]): Map<string, Uint32Array> {
    return this.index.sections(keys);
  }

  saveIndex(fromSeq: number, seq: number, newEntries: readonly string[], sections: ReadonlyMap<string, Uint32Array>): boolean {
    return this.index.save(fromSeq, seq, newEntries, sections);
  }

  putPart(part: PartRecord): void {
    this.parts.put(part);
  }

  updatePart(part: PartRecord): void {
    this.parts.update(part);
  }

  commitParts(added: readonly PartRecord[], updated: readonly PartRecord[], op?: OperationRecord): void {
    this.db.transaction(() => {
      for (const p of added) this.parts.put(p);
      for (const p of updated) this.parts.update(p);
      if (op !== undefined) this.operations.update(op);
    });
  }

  deletePart(partId: string): void {
    this.parts.delete(partId);
  }

  getPart(partId: string): PartRecord | null {
    return this.parts.get(partId);
  }

  listParts(projectId: string): PartRecord[] {
    return this.parts.list(projectId);
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

  claim(name: string, holder: string, ttlMs: number): boolean {
    return this.claims.claim(name, holder, ttlMs, this.now());
  }

  renewClaims(names: readonly string[], holder: string, ttlMs: number): boolean {
    return this.claims.renew(names, holder, ttlMs, this.now());
  }

  releaseClaim(name: string, holder: string): void {
    this.claims.release(name, holder);
  }

  clearClaims(): void {
    this.claims.clear();
  }

  claimHolder(name: string): string | null {
    return this.claims.holder(name, this.now());
  }

  sizeBytes(): number {
    return this.db.sizeBytes();
  }

  close(): void {
    this.db.close();
  }
}
