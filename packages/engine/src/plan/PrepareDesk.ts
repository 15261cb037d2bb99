import { placementWarnings } from "./PlacementChecks.js";
import { fail, mcbError, ok, type Result } from "@mcb/blocks";
import type { OperationJournal, OperationRecord, TouchJournal } from "../store/Journal.js";
import { NO_MANUAL_EDITS } from "../merge/ManualEdits.js";
import { prepareContent, type BuildPrepareInput, type PrepareDeps } from "./Prepare.js";
import { isPlanOrigin, preparedPlanHash, type PlanOrigin, type PlanContent, type PreparedPlan } from "../core/PreparedPlan.js";
import type { ProjectAccess, RequestContext } from "../core/Project.js";
import { checkProtectedParts } from "../parts/ProtectedParts.js";
import { prepareUndoContent } from "./UndoPrepare.js";
import { conflictView, prepareView, type PrepareView, type UndoPrepareView } from "../project/Views.js";
import { planWarnings } from "./Warnings.js";
import { readOnlyRefusal, type WorldInfo } from "../world/WorldAdapter.js";

export interface PrepareDeskDeps extends Omit<PrepareDeps, "journal"> {
  readonly journal: PrepareDeps["journal"] & OperationJournal & TouchJournal;
  readonly clock: () => number;
  readonly newId: (prefix: string) => string;
  scope(ctx: RequestContext): Result<ProjectAccess>;
  ownOperation(ctx: RequestContext, id: unknown): Result<OperationRecord>;
  plan(planId: string): PreparedPlan;
  /** Keeps a stored plan in the engine's cache. */
  cache(plan: PreparedPlan): void;
  /** The world now (the host the engine knows) with its events pulled in. */
  syncEvents(): Promise<WorldInfo>;
  guard<T>(run: () => Promise<Result<T>>): Promise<Result<T>>;
}

/**
 * The engine's prepares: a design (build_prepare) or an undo, checked against the world, merged
 * with people's edits, stored in the journal under an id and an expiry. Nothing is written.
 */
export class PrepareDesk {
  constructor(private readonly d: PrepareDeskDeps) {}

  /** `preparedSeq`: the journal head taken after the event sync and before the base reads. */
  private store(content: PlanContent, preparedSeq: number, origin?: PlanOrigin): PreparedPlan {
    const now = this.d.clock();
    const stamp = { planId: this.d.newId("plan"), planHash: preparedPlanHash(content), createdAt: now, expiresAt: now + this.d.limits.planTtlMs, preparedSeq };
    const plan: PreparedPlan = { ...content, ...stamp, ...(origin === undefined ? {} : { origin }) };
    this.d.journal.putPlan(plan);
    this.d.cache(plan);
    return plan;
  }

  buildPrepare(ctx: RequestContext, input: BuildPrepareInput): Promise<Result<PrepareView>> {
    return this.d.guard(async () => {
      const scope = this.d.scope(ctx);
      if (!scope.ok) return scope;
      if (typeof input !== "object" || input === null) return fail(mcbError("invalid_request", "build_prepare needs an object"));
      const world = await this.d.syncEvents();
      if (world.readOnly !== undefined) return fail(readOnlyRefusal(world.readOnly));
      const seq = this.d.journal.headSeq();
      this.d.index.catchUp();
      const { registry, compiler, adapter, journal, limits, connections, index } = this.d;
      const prepared = await prepareContent({ registry, compiler, adapter, journal, limits, connections, index }, scope.value.config, world, input);
      if (!prepared.ok) return prepared;
      const guarded = checkProtectedParts(journal, scope.value.protectedParts, prepared.value.content);
      if (!guarded.ok) return guarded;
      const origin = input.plan !== undefined && isPlanOrigin(input.origin) ? input.origin : undefined;
      const plan = this.store(prepared.value.content, seq, origin);
      const placed = await placementWarnings(registry, adapter, plan);
      return ok(prepareView(plan, [...prepared.value.notes, ...planWarnings(registry, plan), ...placed], prepared.value.manualEdits));
    });
  }

  undoPrepare(ctx: RequestContext, input: { operation_id: string }): Promise<Result<UndoPrepareView>> {
    return this.d.guard(async () => {
      const scope = this.d.scope(ctx);
      if (!scope.ok) return scope;
      const op = this.d.ownOperation(ctx, input?.operation_id);
      if (!op.ok) return op;
      const world = await this.d.syncEvents();
      if (world.readOnly !== undefined) return fail(readOnlyRefusal(world.readOnly));
      const seq = this.d.journal.headSeq();
      const undo = await prepareUndoContent(this.d.journal, this.d.adapter, (id) => this.d.plan(id), op.value, world, this.d.limits.conflictSampleSize);
      if (!undo.ok) return undo;
      const guarded = checkProtectedParts(this.d.journal, scope.value.protectedParts, undo.value.content);
      if (!guarded.ok) return guarded;
      const plan = this.store(undo.value.content, seq);
      const { count, sample } = undo.value.conflicts;
      return ok({
        ...prepareView(plan, planWarnings(this.d.registry, plan), NO_MANUAL_EDITS),
        undo_of: op.value.operationId,
        conflicts: { count, sample: sample.map(conflictView) },
        uncertain_blocks: undo.value.uncertain,
      });
    });
  }
}
