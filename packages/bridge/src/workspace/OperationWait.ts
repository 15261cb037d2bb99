import type { Result } from "@mcb/blocks";
import { isSettled, type Engine, type OperationStatusView, type RequestContext } from "@mcb/engine";


/**
 * Polls `operation_status` every 20 ms until the operation is settled or `ms` pass (Infinity: until it
 * ends); returns the last status read, or the first failed read.
 */
export async function waitForOperation(engine: Engine, ctx: RequestContext, r: Result<OperationStatusView>, ms: number): Promise<Result<OperationStatusView>> {
  const deadline = Date.now() + ms;
  let cur = r;
  while (cur.ok && !isSettled(cur.value.status) && Date.now() < deadline) {
    await new Promise((res) => setTimeout(res, 20));
    cur = await engine.operationStatus(ctx, { operation_id: cur.value.operation_id });
  }
  return cur;
}
