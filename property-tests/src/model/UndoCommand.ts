import type fc from "fast-check";
import { unwrap, type Harness } from "../Harness.js";
import { assertParts, partsAfterModelUndo } from "./PartModel.js";
import { assertWorld, expectEqual, expectError, nextKey, note, ours, remember, sync, type Model, type ModelOp } from "./Model.js";

/**
 * operation_undo_prepare + build_apply. The model's rule: restore a block only where this
 * operation still owns it (nothing else touched it since, as far as events tell) and the world
 * still holds its result.
 */
export class UndoCommand implements fc.AsyncCommand<Model, Harness> {
  constructor(readonly op: number) {}

  check(m: Readonly<Model>): boolean {
    return m.ops.length > 0;
  }

  async run(m: Model, h: Harness): Promise<void> {
    const op = m.ops[m.ops.length - 1 - (this.op % m.ops.length)]!; // 0: the newest
    const r = await h.engine.operationUndoPrepare(h.agent, { operation_id: op.id });
    sync(m);
    if (op.status === "recovery_required") return expectError("undo of an operation in recovery", r, "recovery_required");
    if (op.undoneBy !== null) {
      note(m, "undo of an undone operation refused");
      return expectError("undo of an operation already undone", r, "invalid_request");
    }
    if (!op.undoable) return expectError("undo of an abandoned operation", r, "invalid_request");
    const undo = unwrap(r);
    // Only where this operation still owns the block: never over a person's edit (ABA included).
    const restorable = [...op.written].filter(([k, w]) => m.owner.get(k) === op.id && m.world.get(k) === w.after);
    expectEqual("undo changed_blocks", undo.changed_blocks, restorable.length);
    expectEqual("undo conflicts", undo.conflicts.count, op.written.size - restorable.length);
    if (restorable.length > 0) note(m, "undo restored blocks");
    if (op.written.size > restorable.length) note(m, "undo refused some blocks");
    if ([...op.written].some(([k, w]) => m.owner.get(k) !== op.id && m.world.get(k) === w.after)) note(m, "undo refused an ABA block");
    const applied = await h.engine.buildApply(h.agent, { plan_id: undo.plan_id, plan_hash: undo.plan_hash, idempotency_key: nextKey(m) });
    if (restorable.length === 0) return expectError("apply of an empty undo", applied, "invalid_request");
    if (m.pending !== null) return expectError("undo apply during recovery", applied, "recovery_required");
    const started = unwrap(applied);
    await h.engine.settle();
    const st = unwrap(await h.engine.operationStatus(h.agent, { operation_id: started.operation_id }));
    expectEqual("undo status", st.status, "applied");
    expectEqual("undo written", st.counters.written, restorable.length);
    const undoOp: ModelOp = {
      id: started.operation_id,
      status: "applied",
      written: new Map(),
      undoable: true,
      undoneBy: null,
      mask: [],
      unfinished: [],
      undoOf: op,
    };
    for (const [k, w] of restorable) {
      m.world.set(k, w.before);
      m.owner.set(k, undoOp.id);
      undoOp.written.set(k, { before: w.after, after: w.before });
      remember(m, k, w.before);
      ours(m, k, w.before);
    }
    op.undoneBy = undoOp.id;
    m.ops.push(undoOp);
    assertWorld(m, h);
    const restoredKeys = new Set(restorable.map(([k]) => k));
    partsAfterModelUndo(m, op, restoredKeys, new Set([...op.written.keys()].filter((k) => !restoredKeys.has(k))));
    assertParts(m, h);
  }

  toString(): string {
    return `undo(op ${this.op})`;
  }
}
