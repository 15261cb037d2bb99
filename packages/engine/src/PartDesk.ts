import { fail, mcbError, ok, type Result } from "@mcb/blocks";
import type { Journal, OperationRecord, PartRecord } from "./Journal.js";
import { confirmedWrites } from "./Ownership.js";
import { partDiff, type PartDiffView } from "./PartDiff.js";
import { MAX_PART_OPERATIONS, definePart, partView, renamePart, type PartView } from "./Parts.js";
import type { PreparedPlan } from "./PreparedPlan.js";
import type { EngineLimits, ProjectAccess, RequestContext } from "./Project.js";
import type { StandingIndex } from "./StandingIndex.js";
import type { WorldAdapter } from "./WorldAdapter.js";

/** What the part requests need of the engine. */
export interface PartDeskDeps {
  readonly adapter: WorldAdapter;
  readonly journal: Journal;
  readonly limits: EngineLimits;
  readonly index: StandingIndex;
  readonly clock: () => number;
  readonly newId: (prefix: string) => string;
  scope(ctx: RequestContext): Result<ProjectAccess>;
  plan(planId: string): PreparedPlan;
  ownOperation(ctx: RequestContext, id: unknown): Result<OperationRecord>;
  syncEvents(): Promise<unknown>;
  /** Runs a request that talks to the world (see `guardWorld`), telling the engine when its host is gone. */
  guard<T>(run: () => Promise<Result<T>>): Promise<Result<T>>;
}

/** The engine's part requests: define, get, rename, delete, diff. Each validates its untrusted input. */
export class PartDesk {
  constructor(private readonly d: PartDeskDeps) {}

  own(ctx: RequestContext, id: unknown): Result<PartRecord> {
    const part = typeof id === "string" ? this.d.journal.getPart(id) : null;
    if (part === null || part.projectId !== ctx.projectId) return fail(mcbError("not_found", `no part ${JSON.stringify(id)} in this project`));
    return ok(part);
  }

  async define(ctx: RequestContext, input: { name: string; operation_id?: string; operation_ids?: readonly string[] }): Promise<Result<PartView>> {
    const scope = this.d.scope(ctx);
    if (!scope.ok) return scope;
    const one = input?.operation_id !== undefined, many = input?.operation_ids !== undefined;
    if (one === many) return fail(mcbError("invalid_request", "give operation_id or operation_ids (one of them)", { reason: "operation_ids" }));
    const ids = one ? [input.operation_id] : input.operation_ids;
    if (!Array.isArray(ids) || ids.length < 1 || ids.length > MAX_PART_OPERATIONS || new Set(ids).size !== ids.length)
      return fail(mcbError("invalid_request", `operation_ids must be 1..${MAX_PART_OPERATIONS} distinct operation ids`, { reason: "operation_ids", limit: MAX_PART_OPERATIONS }));
    const sources: { op: OperationRecord; plan: PreparedPlan }[] = [];
    for (const id of ids) {
      const op = this.d.ownOperation(ctx, id);
      if (!op.ok) return op;
      sources.push({ op: op.value, plan: this.d.plan(op.value.planId) });
    }
    const part = definePart(this.d.journal, sources, input.name, this.d.newId("part"), this.d.clock());
    if (!part.ok) return part;
    this.d.journal.putPart(part.value);
    return ok(partView(part.value));
  }

  async get(ctx: RequestContext, input: { part_id: string }): Promise<Result<PartView>> {
    const scope = this.d.scope(ctx);
    if (!scope.ok) return scope;
    const part = this.own(ctx, input?.part_id);
    return part.ok ? ok(partView(part.value)) : part;
  }

  async rename(ctx: RequestContext, input: { part_id: string; name: string }): Promise<Result<PartView>> {
    const scope = this.d.scope(ctx);
    if (!scope.ok) return scope;
    const part = this.own(ctx, input?.part_id);
    if (!part.ok) return part;
    const renamed = renamePart(this.d.journal, part.value, input.name);
    return renamed.ok ? ok(partView(renamed.value)) : renamed;
  }

  /**
   * Forgets the part (its name and mask); the blocks stay in the world and the operations keep
   * their history. A protected part is refused (permission_denied: the player unprotects it first).
   */
  async delete(ctx: RequestContext, input: { part_id: string }): Promise<Result<PartView>> {
    const scope = this.d.scope(ctx);
    if (!scope.ok) return scope;
    const part = this.own(ctx, input?.part_id);
    if (!part.ok) return part;
    if (scope.value.protectedParts.has(part.value.partId))
      return fail(mcbError("permission_denied", `part ${JSON.stringify(part.value.name)} is protected; the player must unprotect it first`, { reason: "protected_part", part_id: part.value.partId }));
    this.d.journal.deletePart(part.value.partId);
    return ok(partView(part.value));
  }

  /**
   * Where the world no longer holds what we wrote, over a part's mask or an operation's confirmed
   * writes (one of part_id and operation_id). Errors: not_found, invalid_request, budget_exceeded
   * (more positions than one preparation may inspect), busy (world unavailable).
   */
  async diff(ctx: RequestContext, input: { part_id?: string; operation_id?: string }): Promise<Result<PartDiffView>> {
    return this.d.guard(async () => {
      const scope = this.d.scope(ctx);
      if (!scope.ok) return scope;
      if ((input?.part_id === undefined) === (input?.operation_id === undefined))
        return fail(mcbError("invalid_request", "give part_id or operation_id (one of them)", { reason: "target" }));
      let pos: Int32Array;
      if (input.part_id !== undefined) {
        const part = this.own(ctx, input.part_id);
        if (!part.ok) return part;
        pos = part.value.mask;
      } else {
        const op = this.d.ownOperation(ctx, input.operation_id);
        if (!op.ok) return op;
        pos = Int32Array.from(confirmedWrites(this.d.journal, this.d.plan(op.value.planId), op.value.operationId).flatMap((w) => [w.x, w.y, w.z]));
      }
      const max = this.d.limits.maxPreparePositions;
      if (pos.length / 3 > max) return fail(mcbError("budget_exceeded", `${pos.length / 3} positions to compare; at most ${max}`, { limit: max }));
      await this.d.syncEvents();
      this.d.index.catchUp();
      const target = { partId: input.part_id ?? null, operationId: input.operation_id ?? null };
      return ok(await partDiff(this.d.adapter, this.d.index, target, pos, this.d.limits.conflictSampleSize, this.d.clock()));
    });
  }
}
