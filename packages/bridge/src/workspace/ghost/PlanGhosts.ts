import { fail, mcbError, ok, type Result } from "@mcb/blocks";
import type { GhostShown, PortGhosts } from "@mcb/adapter-port";
import type { Engine, RequestContext } from "@mcb/engine";
import { waitForOperation } from "../jobs/OperationWait.js";

/** A player's previewed plan: what `/ai apply` applies. */
export interface PendingPreview {
  readonly planId: string;
  readonly planHash: string;
  readonly projectId: string;
  readonly blocks: number;
}

function n(v: number): string {
  return v.toLocaleString("en-US");
}

/**
 * Each player's previewed plan, shown to that player alone as ghost blocks where the world is a
 * server with the `ghosts` capability (java/PROTOCOL.md "Ghosts"); elsewhere (the console, a save)
 * the plan is only kept for `/ai apply`. Nothing here writes: `apply` goes through the engine's
 * checked path like any build, so a person's edit under the ghost is kept or conflicts as usual.
 */
export class PlanGhosts {
  private readonly pending = new Map<string, PendingPreview>();

  /** `ghosts` null: no player can be shown blocks (console, save, a host without the capability). */
  constructor(
    private readonly engine: Engine,
    private readonly ghosts: PortGhosts | null,
  ) {}

  pendingOf(playerId: string): PendingPreview | undefined {
    return this.pending.get(playerId);
  }

  /**
   * Keeps the plan as the player's preview and shows it to them in game; what they were told.
   * Errors: those of `Engine.planWrites` (another project's plan, an expired one), invalid_request
   * for a plan that changes nothing. A plan too large to show is still kept (the answer says so).
   */
  async show(playerId: string, ctx: RequestContext, planId: string): Promise<Result<{ readonly pending: PendingPreview; readonly note: string }>> {
    const writes = this.engine.planWrites(ctx, { plan_id: planId });
    if (!writes.ok) return writes;
    const blocks = writes.value.pos.length / 3;
    if (blocks === 0) return fail(mcbError("invalid_request", "this plan changes nothing: there is nothing to preview", { reason: "empty_plan" }));
    const pending: PendingPreview = { planId, planHash: writes.value.plan_hash, projectId: ctx.projectId, blocks };
    this.pending.set(playerId, pending);
    const tail = "/ai apply builds it, /ai discard drops it";
    if (this.ghosts === null) return ok({ pending, note: `Preview of ${n(blocks)} blocks kept (no game view here); ${tail}.` });
    const shown: Result<GhostShown> = await this.ghosts.show(playerId, writes.value);
    if (!shown.ok) return ok({ pending, note: `Preview of ${n(blocks)} blocks kept but not shown in game (${shown.error.message}); ${tail}.` });
    if (!shown.value.delivered) return ok({ pending, note: `Preview of ${n(blocks)} blocks kept; you are not in the world to see it; ${tail}.` });
    return ok({ pending, note: `Showing ${n(shown.value.shown)} blocks only you can see; ${tail}.` });
  }

  /** Drops the player's preview and sets their view back to the world's blocks. */
  async discard(playerId: string): Promise<string> {
    const p = this.pending.get(playerId);
    this.pending.delete(playerId);
    if (this.ghosts !== null) await this.ghosts.clear(playerId);
    return p === undefined ? "Nothing was previewed." : `Preview of ${n(p.blocks)} blocks discarded; nothing was written.`;
  }

  /**
   * Applies the player's preview through the checked path (compare-and-set, the three-way merge)
   * and waits for it; the ghost ends with it (the port clears a ghost its writes change, and the
   * rest here). The message says what was written and what was kept of other people's edits.
   */
  async apply(playerId: string, ctx: RequestContext): Promise<string> {
    const p = this.pending.get(playerId);
    if (p === undefined) return "Nothing is previewed: /ai preview <request> first.";
    if (p.projectId !== ctx.projectId) return `Your preview belongs to project ${p.projectId}: /ai project use ${p.projectId} first.`;
    const applied = await this.engine.buildApply(ctx, { plan_id: p.planId, plan_hash: p.planHash, idempotency_key: `chat-apply-${p.planId}` });
    if (!applied.ok) return `Cannot apply the preview: ${applied.error.message}`;
    this.pending.delete(playerId);
    const done = await waitForOperation(this.engine, ctx, applied, Infinity);
    if (this.ghosts !== null) await this.ghosts.clear(playerId);
    const s = done.ok ? done.value : applied.value;
    const c = s.counters;
    if (s.status === "applied") return `Applied the preview: ${n(c.written)} block(s) written by ${s.operation_id}.`;
    if (s.status === "conflict") {
      const at = s.conflicts.slice(0, 3).map((k) => `${k.pos.x} ${k.pos.y} ${k.pos.z}`);
      const more = c.conflicts > at.length ? ", …" : "";
      return (
        `Stopped at a change: ${n(c.conflicts)} block(s) changed since the preview was prepared (at ${at.join(", ")}${more}) and nothing was written over them; ` +
        `${n(c.written)} of ${n(c.total)} written by ${s.operation_id}. /ai preview <request> prepares it again around them.`
      );
    }
    return `The preview's ${s.operation_id} ended ${s.status}: ${n(c.written)} of ${n(c.total)} written${s.error ? ` (${s.error.message})` : ""}.`;
  }
}
