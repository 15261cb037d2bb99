import type { BridgeClaims } from "../recovery/BridgeClaims.js";
import { fail, mcbError, ok, type McbError, type Result } from "@mcb/blocks";
import { emptyCounters } from "./Applier.js";
import { partNameOnUndo } from "../parts/NamedParts.js";
import { activePartNamed, checkName, overlapOf } from "../parts/Parts.js";
import { resolveTakeOver } from "../parts/PartTakeover.js";
import { PositionSet } from "../parts/PositionSet.js";
import { boundsOf } from "@mcb/blocks";
import type { OperationRecord, OperationJournal, PartJournal, TouchJournal } from "../store/Journal.js";
import { writeCount, type PreparedPlan } from "../core/PreparedPlan.js";
import type { EngineLimits, RequestContext } from "../core/Project.js";
import { checkProtectedParts } from "../parts/ProtectedParts.js";
import type { OperationStatusView } from "../project/Views.js";
import { readOnlyRefusal, type WorldInfo } from "../world/WorldAdapter.js";

export interface ApplyDeps {
  readonly journal: OperationJournal & TouchJournal & PartJournal;
  readonly limits: EngineLimits;
  readonly clock: () => number;
  readonly newId: (prefix: string) => string;
  /** This bridge's claims: a new operation is claimed before it is created. */
  readonly claims: BridgeClaims;
  /** A prepared plan by id (the engine's cache, else the journal); null when there is none. */
  findPlan(planId: string): PreparedPlan | null;
  /** The world now, from the host the engine knows (HostCrash when it is gone or restarted). */
  world(): Promise<WorldInfo>;
  submit(operationId: string): void;
  view(op: OperationRecord): OperationStatusView;
}

/**
 * build_apply: the same key and plan return the existing operation; a new key creates the
 * operation (atomically in the journal: a plan is applied at most once) and queues it. Checked
 * first: the input, the plan's expiry, project, epoch and pending recovery, protected parts.
 */
export async function applyPlan(
  d: ApplyDeps,
  ctx: RequestContext,
  input: ApplyInput,
  protectedParts: ReadonlySet<string>,
): Promise<Result<OperationStatusView>> {
  const checked = checkApplyInput(input);
  if (!checked.ok) return checked;
  const { plan_id, plan_hash, idempotency_key, part_name, take_over } = checked.value;
  const journal = d.journal;
  const existing = journal.findOperationByKey(ctx.projectId, idempotency_key);
  if (existing !== null) {
    if (existing.planId === plan_id && existing.planHash === plan_hash) return ok(d.view(existing));
    return fail(
      mcbError("invalid_request", "this idempotency_key was used for a different plan; use a new key for a new plan", {
        reason: "idempotency_key_reused",
        operation_id: existing.operationId,
      }),
    );
  }
  const admitted = admitPlan(journal, d.findPlan(plan_id), d.limits, d.clock(), ctx.projectId, plan_id, plan_hash);
  if (!admitted.ok) {
    // The same plan and key applied meanwhile (another bridge, a retry racing this one) made this
    // request's operation after the key was looked up: it is the answer, not a refusal.
    const meanwhile = admitted.error.details?.reason === "plan_already_applied" ? journal.findOperationByKey(ctx.projectId, idempotency_key) : null;
    if (meanwhile !== null && meanwhile.planId === plan_id && meanwhile.planHash === plan_hash) return ok(d.view(meanwhile));
    return admitted;
  }
  const plan = admitted.value;
  const guarded = checkProtectedParts(journal, protectedParts, plan);
  if (!guarded.ok) return guarded;
  const takeOver = resolveTakeOver(journal, ctx.projectId, take_over, part_name);
  if (!takeOver.ok) return takeOver;
  if (part_name !== undefined) {
    // Refused before anything is written: a name that can never be given, or writes into a part
    // that is not taken over (checked again on the confirmed writes when the part is named).
    if (plan.kind !== "build") return fail(partNameOnUndo());
    // The name of an active part: the build grows that part (its own blocks may be written again).
    const growing = activePartNamed(journal, ctx.projectId, part_name);
    if (growing === null) {
      const name = checkName(journal, ctx.projectId, part_name, null);
      if (!name.ok) return name;
    }
    const overlap = overlapOf(journal, ctx.projectId, PositionSet.of(plan.pos), boundsOf(plan.pos)!, growing?.partId ?? null, new Set(takeOver.value));
    if (!overlap.ok) return overlap;
  }
  const world = await d.world();
  if (world.readOnly !== undefined) return fail(readOnlyRefusal(world.readOnly));
  if (world.worldId !== plan.worldId || world.epoch !== plan.epoch)
    return fail(mcbError("stale_snapshot", "the world was restored or replaced since preparation", { reason: "epoch" }));
  const fresh = newOperation(journal, plan, ctx, idempotency_key, d.newId("op"), d.clock(), d.limits.sliceSize);
  const op = part_name === undefined ? fresh : { ...fresh, partName: part_name, ...(takeOver.value.length === 0 ? {} : { takeOver: takeOver.value }) };
  // The checks above are advisory (they ran before an await); this one is atomic in the journal.
  // Claimed before it exists, so no other bridge sharing the journal takes it for an orphan.
  d.claims.own(op.operationId);
  const created = journal.createOperation(op);
  if (created !== "ok") d.claims.release(op.operationId);
  if (created === "duplicate_key") return applyPlan(d, ctx, input, protectedParts);
  if (created === "duplicate_plan") return fail(alreadyApplied(journal.findOperationByPlan(plan_id)?.operationId ?? null));
  d.submit(op.operationId);
  return ok(d.view(op));
}

export interface ApplyInput {
  readonly plan_id: string;
  readonly plan_hash: string;
  readonly idempotency_key: string;
  /** Name the blocks the operation writes as a part when it ends (builds only). */
  readonly part_name?: string;
  /** Parts (ids or names) whose blocks that part may take over (see `resolveTakeOver`). */
  readonly take_over?: readonly string[];
}

const KEY = /^[\x21-\x7e]{1,128}$/;

/** build_apply's untrusted input: string ids and a printable idempotency key. Errors: invalid_request. */
export function checkApplyInput(input: unknown): Result<ApplyInput> {
  const { plan_id, plan_hash, idempotency_key, part_name, take_over } = (input ?? {}) as Partial<ApplyInput>;
  if (typeof idempotency_key !== "string" || !KEY.test(idempotency_key))
    return fail(mcbError("invalid_request", "idempotency_key must be 1–128 printable characters without spaces", { reason: "idempotency_key" }));
  if (typeof plan_id !== "string" || typeof plan_hash !== "string") return fail(mcbError("invalid_request", "plan_id and plan_hash are required"));
  if (part_name !== undefined && typeof part_name !== "string") return fail(mcbError("invalid_request", "part_name must be a string", { reason: "name" }));
  return ok({ plan_id, plan_hash, idempotency_key, ...(part_name === undefined ? {} : { part_name }), ...(take_over === undefined ? {} : { take_over }) });
}

export function alreadyApplied(operationId: string | null): McbError {
  return mcbError("invalid_request", "this plan was already applied under another key; prepare a new plan", {
    reason: "plan_already_applied",
    operation_id: operationId,
  });
}

/**
 * The checks a prepared plan passes before build_apply creates its operation: it exists in the
 * project with this hash, no operation uses it, it changes something, it has not expired, the
 * journal is under quota and no recovery is pending. Advisory only where it races: uniqueness is
 * decided by the journal's atomic `createOperation`.
 */
export function admitPlan(
  journal: OperationJournal & TouchJournal & PartJournal,
  plan: PreparedPlan | null,
  limits: EngineLimits,
  now: number,
  projectId: string,
  planId: string,
  planHash: string,
): Result<PreparedPlan> {
  if (plan === null || plan.projectId !== projectId) return fail(mcbError("not_found", `no plan ${JSON.stringify(planId)} in this project`));
  if (plan.planHash !== planHash) return fail(mcbError("invalid_request", "plan_hash does not match the prepared plan", { reason: "plan_hash" }));
  const used = journal.findOperationByPlan(planId);
  if (used !== null) return fail(alreadyApplied(used.operationId));
  if (writeCount(plan) === 0)
    return fail(
      mcbError("invalid_request", "this plan changes nothing (the world already holds it): there is nothing to apply", {
        reason: "empty_plan",
        unchanged_blocks: plan.unchanged,
      }),
    );
  if (now > plan.expiresAt)
    return fail(
      mcbError("stale_snapshot", "the plan expired; prepare it again from fresh state", {
        reason: "plan_expired",
        expires_at: new Date(plan.expiresAt).toISOString(),
      }),
    );
  if (journal.sizeBytes() > limits.maxJournalBytes)
    return fail(
      mcbError("budget_exceeded", "the journal is over its disk quota; new writes stop until an administrator frees space", {
        reason: "journal_quota",
        limit: limits.maxJournalBytes,
      }),
    );
  const blocked = journal.unfinishedOperations().filter((o) => o.status === "recovery_required");
  if (blocked.length > 0)
    return fail(
      mcbError("recovery_required", "an unfinished operation awaits administrator review; no new writes start until it is decided", {
        operation_ids: blocked.map((o) => o.operationId),
      }),
    );
  return ok(plan);
}

/** The queued operation record of an admitted plan (an undo inherits the original's part). */
export function newOperation(
  journal: OperationJournal & TouchJournal & PartJournal,
  plan: PreparedPlan,
  ctx: RequestContext,
  key: string,
  operationId: string,
  now: number,
  sliceSize: number,
): OperationRecord {
  return {
    operationId,
    projectId: ctx.projectId,
    planId: plan.planId,
    planHash: plan.planHash,
    idempotencyKey: key,
    initiator: {
      playerId: ctx.principal.playerId,
      role: ctx.principal.role,
      ...(ctx.principal.client === undefined ? {} : { client: ctx.principal.client.slice(0, 120) }),
    },
    kind: plan.kind,
    ...(plan.origin === undefined ? {} : { origin: plan.origin }),
    undoOf: plan.undoOf,
    partId: plan.partId ?? (plan.undoOf === null ? null : (journal.getOperation(plan.undoOf)?.partId ?? null)),
    status: "queued",
    createdAt: now,
    updatedAt: now,
    counters: emptyCounters(plan, sliceSize),
    conflictSample: [],
    error: null,
    undoable: true,
    undoneBy: null,
  };
}
