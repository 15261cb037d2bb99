import { setTimeout as sleep } from "node:timers/promises";
import type { Engine, OperationSummary, RequestContext } from "@mcb/engine";
import type { ChatProject } from "./ChatProjects.js";
import type { ProjectTurns } from "./ProjectTurns.js";

/** How long a stop waits for cancelled operations to reach their final state. */
const SETTLE_MS = 15_000;

/** The project's queued and applying operations (newest first). */
export async function activeOperations(engine: Engine, admin: RequestContext): Promise<OperationSummary[]> {
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
 * `/ai stop` (DESIGN §7, §11): cancels the project's running and queued world changes (no new
 * slice starts; completed slices stay written), pauses the project's writing until the owner's
 * next request, cancels the agent's turn (terminating an agent that ignores it for 5 s), and
 * reports exactly how many blocks each stopped operation wrote.
 */
export async function stopProject(engine: Engine, project: ChatProject, turns: ProjectTurns): Promise<string[]> {
  const admin: RequestContext = { principal: { playerId: "mcb-chat", role: "admin" }, projectId: project.projectId };
  const ops = await activeOperations(engine, admin);
  for (const op of ops) await engine.operationCancel(admin, { operation_id: op.operation_id });
  engine.setAccess(project.projectId, project.ownerId, false); // paused until the next request
  const hadTurn = turns.running !== null;
  await turns.cancel();
  const lines: string[] = [];
  const deadline = performance.now() + SETTLE_MS;
  for (const op of ops) {
    let s = await engine.operationStatus(admin, { operation_id: op.operation_id });
    while (s.ok && (s.value.status === "applying" || s.value.status === "queued") && performance.now() < deadline) {
      await sleep(20);
      s = await engine.operationStatus(admin, { operation_id: op.operation_id });
    }
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

/** `/ai undo <operation>`: checked undo of one of the player's own operations, applied and awaited. */
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
  let s = applied.value;
  while (s.status === "queued" || s.status === "applying") {
    await sleep(20);
    const next = await engine.operationStatus(ctx, { operation_id: s.operation_id });
    if (!next.ok) break;
    s = next.value;
  }
  return s.status === "applied"
    ? `Undid ${operationId}: ${n(s.counters.written)} block(s) restored${kept} (${s.operation_id}).`
    : `Undo ${s.operation_id} ended ${s.status}: ${n(s.counters.written)} of ${n(s.counters.total)} restored${s.error ? ` (${s.error.message})` : ""}.`;
}
