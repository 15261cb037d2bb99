import type { SavedState, SliceResult, UnsavedSlice } from "./Journal.js";

interface Save extends UnsavedSlice {
  /** 0 not known saved, 1 saved, 2 checked with losses (as in `SqliteSavedWrites`). */
  settled: number;
}

/** The saved-writes part of `MemoryJournal` (docs/DESIGN.md "Saved writes"), same rules as the SQLite one. */
export class MemorySavedWrites {
  private readonly marks = new Map<string, number>();
  private readonly saves: Save[] = [];
  private readonly byOp = new Map<string, Save[]>();
  private readonly lost = new Map<string, number[]>();

  record(result: SliceResult): void {
    const saved = result.saved;
    if (saved === undefined || saved.writeSeq <= 0) return;
    this.noteSaved(saved.session, saved.savedThrough);
    const s: Save = { operationId: result.operationId, sliceNo: result.sliceNo, session: saved.session, writeSeq: saved.writeSeq, settled: saved.writeSeq <= (this.marks.get(saved.session) ?? 0) ? 1 : 0 };
    this.saves.push(s);
    const list = this.byOp.get(s.operationId) ?? [];
    list.push(s);
    this.byOp.set(s.operationId, list);
  }

  noteSaved(session: string, savedThrough: number): void {
    if (savedThrough <= (this.marks.get(session) ?? 0)) return;
    this.marks.set(session, savedThrough);
    for (const s of this.saves) if (s.settled === 0 && s.session === session && s.writeSeq <= savedThrough) s.settled = 1;
  }

  unsavedSlices(): UnsavedSlice[] {
    return this.saves.filter((s) => s.settled === 0).map(({ operationId, sliceNo, session, writeSeq }) => ({ operationId, sliceNo, session, writeSeq }));
  }

  settleUnsaved(slices: readonly UnsavedSlice[], lost: ReadonlyMap<string, readonly number[]>): void {
    for (const [op, indices] of lost) {
      if (indices.length === 0) continue;
      this.lost.set(op, [...new Set([...(this.lost.get(op) ?? []), ...indices])].sort((a, b) => a - b));
    }
    for (const sl of slices) {
      const s = this.byOp.get(sl.operationId)?.find((x) => x.sliceNo === sl.sliceNo);
      if (s !== undefined) s.settled = (lost.get(sl.operationId)?.length ?? 0) > 0 ? 2 : 1;
    }
  }

  savedState(operationId: string): SavedState {
    const list = this.byOp.get(operationId);
    if (list === undefined || list.length === 0) return null;
    if (list.some((s) => s.settled === 2)) return "lost";
    return list.some((s) => s.settled === 0) ? "unsaved" : "saved";
  }

  lostWrites(operationId: string): number[] {
    return [...(this.lost.get(operationId) ?? [])];
  }
}
