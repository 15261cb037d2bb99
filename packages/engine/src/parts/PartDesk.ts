import { boxesIntersect, fail, mcbError, ok, type Result } from "@mcb/blocks";
import { regionOf } from "../world/Inspect.js";
import { maskKeys } from "./PartMask.js";
import type { OperationRecord, PartRecord, OperationJournal, TouchJournal, PartJournal } from "../store/Journal.js";
import { confirmedWrites } from "../merge/Ownership.js";
import { partDiff, type PartDiffView } from "./PartDiff.js";
import { MAX_PART_OPERATIONS, definePart, partDetailView, partView, renamePart, type PartDetailView, type PartView } from "./Parts.js";
import type { PreparedPlan } from "../core/PreparedPlan.js";
import type { EngineLimits, ProjectAccess, RequestContext } from "../core/Project.js";
import type { StandingIndex } from "../merge/StandingIndex.js";
import type { WorldAdapter } from "../world/WorldAdapter.js";

/** At most this many parts in one part_diff. */
export const MAX_DIFF_PARTS = 32;

/** part_diff's target: exactly one of a part, an operation, several parts, or a box (min and max). */
import { findPart } from "./PartLookup.js";

export interface PartDiffInput {
  readonly part_id?: string;
  readonly operation_id?: string;
  readonly part_ids?: readonly string[];
  readonly min?: unknown;
  readonly max?: unknown;
}

/** What the part requests need of the engine. */
export interface PartDeskDeps {
  readonly adapter: WorldAdapter;
  readonly journal: OperationJournal & TouchJournal & PartJournal;
  readonly limits: EngineLimits;
  readonly index: StandingIndex;
  readonly clock: () => number;
  readonly newId: (prefix: string) => string;
  scope(ctx: RequestContext): Result<ProjectAccess>;
  plan(planId: string): PreparedPlan;
  /** A plan's write-set positions only (from the plan cache, or decoding nothing else). */
  planPositions(planId: string): Int32Array;
  ownOperation(ctx: RequestContext, id: unknown): Result<OperationRecord>;
  syncEvents(): Promise<unknown>;
  /** Runs a request that talks to the world (see `guardWorld`), telling the engine when its host is gone. */
  guard<T>(run: () => Promise<Result<T>>): Promise<Result<T>>;
}

/** The engine's part requests: define, get, rename, delete, diff. Each validates its untrusted input. */
export class PartDesk {
  constructor(private readonly d: PartDeskDeps) {}

  /** A part of the caller's project by id or by an active part's name (`findPart`). */
  own(ctx: RequestContext, id: unknown): Result<PartRecord> {
    return findPart(this.d.journal, ctx.projectId, id);
  }

  async define(ctx: RequestContext, input: { name: string; operation_id?: string; operation_ids?: readonly string[] }): Promise<Result<PartView>> {
    const scope = this.d.scope(ctx);
    if (!scope.ok) return scope;
    const one = input?.operation_id !== undefined,
      many = input?.operation_ids !== undefined;
    if (one === many) return fail(mcbError("invalid_request", "give operation_id or operation_ids (one of them)", { reason: "operation_ids" }));
    const ids = one ? [input.operation_id] : input.operation_ids;
    if (!Array.isArray(ids) || ids.length < 1 || ids.length > MAX_PART_OPERATIONS || new Set(ids).size !== ids.length)
      return fail(
        mcbError("invalid_request", `operation_ids must be 1..${MAX_PART_OPERATIONS} distinct operation ids`, {
          reason: "operation_ids",
          limit: MAX_PART_OPERATIONS,
        }),
      );
    // Plans are loaded one at a time while the part is collected (a 100-tile paste's plans never all at once).
    const sources: { op: OperationRecord; plan: () => { readonly pos: Int32Array } }[] = [];
    for (const id of ids) {
      const op = this.d.ownOperation(ctx, id);
      if (!op.ok) return op;
      const planId = op.value.planId;
      sources.push({ op: op.value, plan: () => ({ pos: this.d.planPositions(planId) }) });
    }
    const part = definePart(this.d.journal, sources, input.name, this.d.newId("part"), this.d.clock());
    if (!part.ok) return part;
    this.d.journal.putPart(part.value);
    return ok(partView(part.value));
  }

  async get(ctx: RequestContext, input: { part_id: string }): Promise<Result<PartDetailView>> {
    const scope = this.d.scope(ctx);
    if (!scope.ok) return scope;
    const part = this.own(ctx, input?.part_id);
    return part.ok ? ok(partDetailView(part.value)) : part;
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
      return fail(
        mcbError("permission_denied", `part ${JSON.stringify(part.value.name)} is protected; the player must unprotect it first`, {
          reason: "protected_part",
          part_id: part.value.partId,
        }),
      );
    this.d.journal.deletePart(part.value.partId);
    return ok(partView(part.value));
  }

  /**
   * Where the world no longer holds what we wrote, over one of: a part's mask (part_id), an
   * operation's confirmed writes (operation_id), several parts' masks (part_ids, 1..32: each
   * part's share is listed), or every block of ours standing in a box (min, max: the parts there
   * listed too). Errors: not_found, invalid_request, budget_exceeded (more positions than one
   * preparation may inspect), busy (world unavailable).
   */
  async diff(ctx: RequestContext, input: PartDiffInput): Promise<Result<PartDiffView>> {
    return this.d.guard(async () => {
      const scope = this.d.scope(ctx);
      if (!scope.ok) return scope;
      const given = [input?.part_id, input?.operation_id, input?.part_ids, input?.min ?? input?.max].filter((v) => v !== undefined).length;
      if (given !== 1) return fail(mcbError("invalid_request", "give one of part_id, operation_id, part_ids, or min and max", { reason: "target" }));
      await this.d.syncEvents();
      this.d.index.catchUp();
      const target = this.diffTarget(ctx, input);
      if (!target.ok) return target;
      const { pos, shares } = target.value;
      const max = this.d.limits.maxPreparePositions;
      if (pos.length / 3 > max) return fail(mcbError("budget_exceeded", `${pos.length / 3} positions to compare; at most ${max}`, { limit: max }));
      const partId = input.part_id === undefined ? null : this.own(ctx, input.part_id); // a name answers with the part's id
      const ids = { partId: partId?.ok === true ? partId.value.partId : null, operationId: input.operation_id ?? null };
      return ok(await partDiff(this.d.adapter, this.d.index, ids, pos, this.d.limits.conflictSampleSize, this.d.clock(), shares));
    });
  }

  /** The positions a diff compares, and for several parts or a box, each part's positions. */
  private diffTarget(ctx: RequestContext, input: PartDiffInput): Result<{ pos: Int32Array; shares?: { part_id: string; name: string; keys: Set<string> }[] }> {
    if (input.part_id !== undefined) {
      const part = this.own(ctx, input.part_id);
      return part.ok ? ok({ pos: part.value.mask }) : part;
    }
    if (input.operation_id !== undefined) {
      const op = this.d.ownOperation(ctx, input.operation_id);
      if (!op.ok) return op;
      return ok({ pos: Int32Array.from(confirmedWrites(this.d.journal, this.d.plan(op.value.planId), op.value.operationId).flatMap((w) => [w.x, w.y, w.z])) });
    }
    if (input.part_ids !== undefined) {
      const ids = input.part_ids;
      if (!Array.isArray(ids) || ids.length < 1 || ids.length > MAX_DIFF_PARTS || new Set(ids).size !== ids.length)
        return fail(mcbError("invalid_request", `part_ids must be 1..${MAX_DIFF_PARTS} distinct part ids`, { reason: "part_ids", limit: MAX_DIFF_PARTS }));
      const parts: PartRecord[] = [];
      for (const id of ids) {
        const part = this.own(ctx, id);
        if (!part.ok) return part;
        parts.push(part.value);
      }
      const pos = new Int32Array(parts.reduce((n, p) => n + p.mask.length, 0));
      let at = 0;
      for (const p of parts) pos.set(p.mask, (at += p.mask.length) - p.mask.length);
      return ok({ pos, shares: parts.map((p) => ({ part_id: p.partId, name: p.name, keys: maskKeys(p.mask) })) });
    }
    const region = regionOf(input.min, input.max);
    if (!region.ok) return region;
    const b = region.value;
    const volume = (b.maxX - b.minX + 1) * (b.maxY - b.minY + 1) * (b.maxZ - b.minZ + 1);
    if (volume > this.d.limits.maxPreparePositions)
      return fail(
        mcbError("budget_exceeded", `the box holds ${volume} positions; at most ${this.d.limits.maxPreparePositions}`, {
          limit: this.d.limits.maxPreparePositions,
        }),
      );
    const all = new Int32Array(volume * 3);
    let k = 0;
    for (let y = b.minY; y <= b.maxY; y++) for (let z = b.minZ; z <= b.maxZ; z++) for (let x = b.minX; x <= b.maxX; x++) all.set([x, y, z], 3 * k++);
    const entries = this.d.index.entries(all);
    const ours: number[] = [];
    for (let i = 0; i < volume; i++) if (this.d.index.standing(entries[i]!) !== null) ours.push(all[i * 3]!, all[i * 3 + 1]!, all[i * 3 + 2]!);
    const keys = maskKeys(ours);
    const shares = this.d.journal
      .listParts(ctx.projectId)
      .filter((p) => p.retired !== true && boxesIntersect(p.bounds, b))
      .map((p) => ({ part_id: p.partId, name: p.name, keys: new Set([...maskKeys(p.mask)].filter((key) => keys.has(key))) }))
      .filter((p) => p.keys.size > 0);
    return ok({ pos: Int32Array.from(ours), shares });
  }
}
