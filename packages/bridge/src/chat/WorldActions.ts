import type { Engine, OperationSummary, RequestContext } from "@mcb/engine";
import { waitForOperation } from "../workspace/jobs/OperationWait.js";
import type { ChatProject } from "./ChatProjects.js";
import type { ProjectTurns } from "./ProjectTurns.js";

/** How long a stop waits for cancelled operations to reach their final state. */
const SETTLE_MS = 15_000;

/** The bridge's own administrator context in a project: reads and cancels that work while the project's writing is paused. */
export function chatAdmin(projectId: string): RequestContext {
  return { principal: { playerId: "mcb-chat", role: "admin", client: "mcb chat" }, projectId };
}

/** The project's queued and applying operations (newest first). */
export async function activeOperations(engine: Engine, projectId: string): Promise<OperationSummary[]> {
  const admin = chatAdmin(projectId);
  const out: OperationSummary[] = [];
  for (const status of ["applying", "queued"] as const) {
    const list = await engine.operationList(admin, { status, limit: 50 });
    if (list.ok) out.push(...list.value.operations);
  }
  return out;
}

function n(v: number): string {
  return v.toLocaleString("en-US");
}

/**
 * `/ai stop` (docs/CHAT.md "Commands"): cancels the project's running and queued world changes (no new
 * slice starts; completed slices stay written), pauses the project's writing until the owner's
 * next request, cancels the agent's turn (terminating an agent that ignores it for 5 s), and
 * reports exactly how many blocks each stopped operation wrote.
 */
export async function stopProject(engine: Engine, project: ChatProject, turns: ProjectTurns): Promise<string[]> {
  const admin = chatAdmin(project.projectId);
  const ops = await activeOperations(engine, project.projectId);
  for (const op of ops) await engine.operationCancel(admin, { operation_id: op.operation_id });
  engine.setAccess(project.projectId, project.ownerId, false); // paused until the next request
  const hadTurn = turns.running !== null;
  await turns.cancel();
  const lines: string[] = [];
  const deadline = Date.now() + SETTLE_MS;
  for (const op of ops) {
    const s = await waitForOperation(engine, admin, await engine.operationStatus(admin, { operation_id: op.operation_id }), Math.max(0, deadline - Date.now()));
    if (!s.ok) continue;
    const c = s.value.counters;
    lines.push(
      s.value.status === "cancelled"
        ? `Stopped ${s.value.operation_id}: ${n(c.written)} of ${n(c.total)} blocks written, ${n(c.total - c.written - c.skipped)} not written (undo with /ai undo ${s.value.operation_id}).`
        : `${s.value.operation_id} ended ${s.value.status} before the stop: ${n(c.written)} of ${n(c.total)} blocks written.`,
    );
  }
  if (!hadTurn && ops.length === 0) lines.push("Nothing was running.");
  else lines.unshift(hadTurn ? "Stopped the agent's turn." : "Stopped.");
  lines.push("Writing is paused until your next /ai request.");
  return lines;
}

/** `/ai undo <operation>`: checked undo of the player's operation, applied and awaited. */
export async function undoForPlayer(engine: Engine, ctx: RequestContext, operationId: string): Promise<string> {
  const original = await engine.operationStatus(ctx, { operation_id: operationId });
  if (!original.ok) return original.error.message;
  const prepared = await engine.operationUndoPrepare(ctx, { operation_id: operationId });
  if (!prepared.ok) return `Cannot undo ${operationId}: ${prepared.error.message}`;
  const p = prepared.value;
  const kept = p.conflicts.count > 0 ? `; ${n(p.conflicts.count)} block(s) changed since are left as they are` : "";
  if (p.changed_blocks === 0) return `Nothing to undo in ${operationId}${kept}.`;
  const applied = await engine.buildApply(ctx, { plan_id: p.plan_id, plan_hash: p.plan_hash, idempotency_key: `chat-undo-${p.plan_id}` });
  if (!applied.ok) return `Cannot undo ${operationId}: ${applied.error.message}`;
  const done = await waitForOperation(engine, ctx, applied, Infinity);
  const s = done.ok ? done.value : applied.value;
  return s.status === "applied"
    ? `Undid ${operationId}: ${n(s.counters.written)} block(s) restored${kept} (${s.operation_id}).`
    : `Undo ${s.operation_id} ended ${s.status}: ${n(s.counters.written)} of ${n(s.counters.total)} restored${s.error ? ` (${s.error.message})` : ""}.`;
}
