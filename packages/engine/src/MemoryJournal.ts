import { operationKind } from "./OperationStatus.js";
import { randomBytes } from "node:crypto";
import type { IndexHead, Journal, OperationFilter, OperationRecord, PartRecord, SavedState, SliceRecord, SliceResult, TouchKind, TouchList, UnsavedSlice } from "./Journal.js";
import { TOUCH_KIND_CODES } from "./Journal.js";
import { MemorySavedWrites } from "./MemorySavedWrites.js";
import { hasEnded } from "./OperationStatus.js";
import type { PreparedPlan } from "./PreparedPlan.js";
import { encodedPlanSize } from "./PreparedPlan.js";
import { type Box3, boxesIntersect, inBox } from "@mcb/blocks";

/**
 * The journal held in process memory: same contract as `SqliteJournal`, lost with the process
 * (which a test "restart" keeps by reusing the instance). Stored values are copies.
 */
export class MemoryJournal implements Journal {
  private readonly plans = new Map<string, PreparedPlan>();
  private readonly ops = new Map<string, OperationRecord>();
  private readonly keys = new Map<string, string>();
  private readonly byPlan = new Map<string, string>();
  private readonly sliceMap = new Map<string, SliceRecord[]>();
  private readonly confirmed: SliceRecord[] = [];
  private touches: number[] = [];
  private touchStates: (string | null)[] = [];
  private touchKinds: number[] = [];
  private readonly parts = new Map<string, PartRecord>();
  private seq = 0;
  private bytes = 0;
  private cursor: string | null = null;
  private gapSeq = 0;
  private readonly id = randomBytes(8).toString("hex");
  private indexSeq = 0;
  private readonly indexEntries: string[] = [];
  private readonly index = new Map<string, Uint32Array>();
  private readonly saves = new MemorySavedWrites();

  putPlan(plan: PreparedPlan): void {
    this.plans.set(plan.planId, plan);
    this.bytes += encodedPlanSize(plan);
  }

  getPlan(planId: string): PreparedPlan | null {
    return this.plans.get(planId) ?? null;
  }

  createOperation(op: OperationRecord): "ok" | "duplicate_key" | "duplicate_plan" {
    const key = `${op.projectId}\0${op.idempotencyKey}`;
    if (this.keys.has(key)) return "duplicate_key";
    if (this.planInUse(op.planId)) return "duplicate_plan";
    this.keys.set(key, op.operationId);
    if (!this.byPlan.has(op.planId)) this.byPlan.set(op.planId, op.operationId);
    this.ops.set(op.operationId, structuredClone(op));
    this.bytes += JSON.stringify(op).length;
    return "ok";
  }

  /** Whether an operation already uses the plan (a seam for the model suite's planted bug only). */
  protected planInUse(planId: string): boolean {
    return this.byPlan.has(planId);
  }

  getOperation(operationId: string): OperationRecord | null {
    const op = this.ops.get(operationId);
    return op === undefined ? null : structuredClone(op);
  }

  findOperationByKey(projectId: string, key: string): OperationRecord | null {
    const id = this.keys.get(`${projectId}\0${key}`);
    return id === undefined ? null : this.getOperation(id);
  }

  findOperationByPlan(planId: string): OperationRecord | null {
    const id = this.byPlan.get(planId);
    return id === undefined ? null : this.getOperation(id);
  }

  listOperations(projectId: string, filter: OperationFilter, limit: number): OperationRecord[] {
    const { kind, status, part, after } = filter;
    return [...this.ops.values()]
      .filter(
        (o) =>
          o.projectId === projectId &&
          (kind === undefined || operationKind(o) === kind) &&
          (status === undefined || o.status === status) &&
          (part === undefined || o.partId === part.partId || part.operationIds.includes(o.operationId)) &&
          (after === undefined || o.createdAt < after.createdAt || (o.createdAt === after.createdAt && o.operationId < after.operationId)),
      )
      .sort((a, b) => b.createdAt - a.createdAt || (a.operationId < b.operationId ? 1 : -1))
      .slice(0, limit)
      .map((o) => structuredClone(o));
  }

  unfinishedOperations(): OperationRecord[] {
    return [...this.ops.values()].filter((o) => !hasEnded(o.status)).map((o) => structuredClone(o));
  }

  commit(op: OperationRecord, results: readonly SliceResult[], intents: readonly SliceRecord[]): number {
    let seq = 0;
    for (const result of results) {
      const list = this.sliceMap.get(result.operationId) ?? [];
      const i = list.findIndex((s) => s.sliceNo === result.sliceNo);
      const open = list[i];
      if (open === undefined) throw new Error(`no intent for slice ${result.sliceNo} of ${result.operationId}`);
      if (open.written !== null) throw new Error(`slice ${result.sliceNo} of ${result.operationId} already confirmed`);
      seq = ++this.seq;
      const done: SliceRecord = { ...open, written: result.written.slice(), seq, entityDigests: [...result.entityDigests] };
      list[i] = done;
      this.confirmed.push(done);
      this.saves.record(result);
      this.bytes += result.written.length + 16;
    }
    for (const intent of intents) {
      const list = this.sliceMap.get(intent.operationId) ?? [];
      if (list.some((s) => s.sliceNo === intent.sliceNo)) throw new Error(`slice ${intent.sliceNo} intent exists`);
      list.push({ ...intent, intent: intent.intent.slice() });
      this.sliceMap.set(intent.operationId, list);
      this.bytes += intent.intent.length + 48;
    }
    if (!this.ops.has(op.operationId)) throw new Error(`unknown operation ${op.operationId}`);
    this.ops.set(op.operationId, structuredClone(op));
    return seq;
  }

  slices(operationId: string): SliceRecord[] {
    return [...(this.sliceMap.get(operationId) ?? [])].sort((a, b) => a.sliceNo - b.sliceNo);
  }

  slicesAfter(afterSeq: number, box: Box3): SliceRecord[] {
    return this.confirmed.filter((s) => s.seq > afterSeq && boxesIntersect(s.bounds, box));
  }

  addTouches(positions: Int32Array, states?: readonly (string | null)[], options: { readonly kind?: TouchKind; readonly eventCursor?: string } = {}): number {
    const seq = ++this.seq;
    const kind = TOUCH_KIND_CODES[options.kind ?? "external"];
    for (let i = 0; i < positions.length; i += 3) {
      this.touches.push(seq, positions[i]!, positions[i + 1]!, positions[i + 2]!);
      const state = states?.[i / 3] ?? null;
      this.touchStates.push(state);
      this.touchKinds.push(kind);
      this.bytes += 16 + (state?.length ?? 0);
    }
    if (options.eventCursor !== undefined) this.cursor = options.eventCursor;
    return seq;
  }

  touchesAfter(afterSeq: number, box: Box3): TouchList {
    const quads: number[] = [];
    const states: (string | null)[] = [];
    const kinds: number[] = [];
    const rows: number[] = [];
    const t = this.touches;
    for (let i = 0; i < t.length; i += 4) {
      if (t[i]! > afterSeq && inBox(box, t[i + 1]!, t[i + 2]!, t[i + 3]!)) {
        quads.push(t[i]!, t[i + 1]!, t[i + 2]!, t[i + 3]!);
        states.push(this.touchStates[i / 4]!);
        kinds.push(this.touchKinds[i / 4]!);
        rows.push(i / 4);
      }
    }
    return { quads: Float64Array.from(quads), states, kinds: Uint8Array.from(kinds), rows: Float64Array.from(rows) };
  }

  headSeq(): number {
    return this.seq;
  }

  eventCursor(): string | null {
    return this.cursor;
  }

  saveEventCursor(cursor: string): void {
    this.cursor = cursor;
  }

  markGap(eventCursor: string): number {
    this.gapSeq = ++this.seq;
    this.cursor = eventCursor;
    return this.gapSeq;
  }

  lastGapSeq(): number {
    return this.gapSeq;
  }

  journalId(): string {
    return this.id;
  }

  indexHead(): IndexHead {
    return { seq: this.indexSeq, entries: [...this.indexEntries] };
  }

  indexSections(keys: readonly string[]): Map<string, Uint32Array> {
    const out = new Map<string, Uint32Array>();
    for (const k of keys) {
      const s = this.index.get(k);
      if (s !== undefined) out.set(k, s.slice());
    }
    return out;
  }

  saveIndex(seq: number, newEntries: readonly string[], sections: ReadonlyMap<string, Uint32Array>): void {
    this.indexEntries.push(...newEntries);
    for (const [k, s] of sections) {
      if (!this.index.has(k)) this.bytes += s.byteLength;
      this.index.set(k, s.slice());
    }
    this.indexSeq = seq;
  }

  putPart(part: PartRecord): void {
    this.parts.set(part.partId, { ...part, mask: part.mask.slice() });
    this.bytes += part.mask.byteLength + 128;
  }

  updatePart(part: PartRecord): void {
    if (!this.parts.has(part.partId)) throw new Error(`unknown part ${part.partId}`);
    this.parts.set(part.partId, { ...part, mask: part.mask.slice() });
  }

  commitParts(added: readonly PartRecord[], updated: readonly PartRecord[], op?: OperationRecord): void {
    for (const p of updated) if (!this.parts.has(p.partId)) throw new Error(`unknown part ${p.partId}`);
    if (op !== undefined) this.commit(op, [], []);
    for (const p of added) this.putPart(p);
    for (const p of updated) this.updatePart(p);
  }

  deletePart(partId: string): void {
    this.parts.delete(partId);
  }

  getPart(partId: string): PartRecord | null {
    return this.parts.get(partId) ?? null;
  }

  listParts(projectId: string): PartRecord[] {
    return [...this.parts.values()].filter((p) => p.projectId === projectId).sort((a, b) => a.createdAt - b.createdAt);
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
    return this.bytes;
  }

  close(): void {
    // Nothing to release: a memory journal lives as long as its instance.
  }
}
