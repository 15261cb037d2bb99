import { ok, type Result } from "@mcb/blocks";
import { hasEnded, isSettled, type Engine, type OperationStatusView, type RequestContext } from "@mcb/engine";

/**
 * Polls `operation_status` every 20 ms until the operation is settled or `ms` pass (Infinity: until it
 * ends); returns the last status read, or the first failed read.
 */
export async function waitForOperation(engine: Engine, ctx: RequestContext, r: Result<OperationStatusView>, ms: number): Promise<Result<OperationStatusView>> {
  const deadline = Date.now() + ms;
  let cur = r;
  // An ended operation that names a part is settled once the part is named (the same turn, in-process).
  const settled = (v: OperationStatusView): boolean =>
    isSettled(v.status) && (v.part === null || v.part.part_id !== null || v.part.error !== null || !hasEnded(v.status));
  while (cur.ok && !settled(cur.value) && Date.now() < deadline) {
    await new Promise((res) => setTimeout(res, 20));
    cur = await engine.operationStatus(ctx, { operation_id: cur.value.operation_id });
  }
  return cur;
}

/**
 * After an operation ended: asks the world to save what it wrote (docs/DESIGN.md "Saved writes")
 * and returns its status again (`saved: true`), with the time the save took. A world that does
 * not number its writes (`no_saved_writes`), or an operation still running, is returned as it is.
 */
export async function waitSaved(
  engine: Engine,
  ctx: RequestContext,
  r: Result<OperationStatusView>,
): Promise<{ status: Result<OperationStatusView>; savedMs: number | null }> {
  if (!r.ok || !hasEnded(r.value.status) || r.value.saved !== false) return { status: r, savedMs: null };
  const flushed = await engine.flush(ctx);
  if (!flushed.ok) return { status: flushed.error.details?.reason === "no_saved_writes" ? r : flushed, savedMs: null };
  const again = await engine.operationStatus(ctx, { operation_id: r.value.operation_id });
  return { status: again.ok ? again : ok(r.value), savedMs: flushed.value.ms };
}
