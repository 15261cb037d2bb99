import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { boxJson, ok, type McbError, type Vec3 } from "@mcb/blocks";
import { summarizePlan } from "@mcb/recipe";
import type { McpContext } from "../workspace/agent/McpContext.js";
import type { BatchJobStatus } from "../workspace/jobs/BatchJobs.js";
import { bigBuild, buildBatch, tiledRefusal } from "../workspace/jobs/RecipeBatch.js";
import type { ApplyConsent } from "./ApplyConsent.js";
import { waitForJob } from "./JobWait.js";
import { toolResult } from "./ToolResult.js";
import type { ProgressSender } from "./ToolTable.js";

/** What build_prepare was asked, as far as a build in tiles takes it. */
export interface BigBuildAsk {
  readonly recipe: unknown;
  readonly dependencies?: readonly Vec3[];
  readonly part_id?: string;
  readonly expected_blocks?: readonly unknown[];
  readonly on_manual_edit?: "refuse" | "keep";
  readonly replace?: readonly Vec3[];
  readonly apply: { readonly idempotency_key: string; readonly part_name?: string; readonly take_over?: readonly string[]; readonly wait_ms?: number };
}

/** The most materials an answer lists (as a prepare's). */
const MATERIALS = 32;

/**
 * build_prepare with `apply` of a recipe over one plan's size (up to `MAX_BUILD_POSITIONS`): its
 * tiles prepared and applied in the background as one job (each a checked, undoable operation,
 * people's edits kept or refused per tile), every block it wrote one part at the end. The answer is
 * a prepare's, for the whole build (`plan_id` is the `build_id`, `changed_blocks` its positions),
 * with `operation` the job in brief (`operation_id` the `build_id`); the same call again (the same
 * recipe and idempotency_key) gives its progress, or resumes it after a stop or a restart; batch_undo
 * undoes it whole. Null when the refusal was not about the plan's size (it stands).
 */
export async function bigBuildAnswer(
  m: McpContext,
  consent: ApplyConsent,
  ask: BigBuildAsk,
  refusal: McbError,
  progress: ProgressSender,
): Promise<CallToolResult | null> {
  const big = bigBuild(m.registry, ask.recipe, refusal, ask.dependencies ?? []);
  if (big === null) return null;
  const tiles = Math.ceil(big.plan.count / big.tileBlocks);
  for (const [given, what] of [
    [ask.part_id, "part_id"],
    [ask.expected_blocks, "expected_blocks"],
    [ask.replace, "replace"],
    [ask.apply.take_over, "take_over"],
  ] as const)
    if (given !== undefined) return toolResult(tiledRefusal(big.plan.count, tiles, what));
  const spec = buildBatch(big.plan, big.tileBlocks, ask.apply.idempotency_key);
  const before = m.buildJobs.status(spec.id);
  if (before?.state !== "done" && !m.buildJobs.running(spec.id)) {
    const b = big.plan.bounds!;
    const asked = await consent.confirm(
      `Build ${big.plan.count} blocks at x ${b.minX}..${b.maxX}, y ${b.minY}..${b.maxY}, z ${b.minZ}..${b.maxZ} in ${tiles} tiles?`,
      big.plan.count,
      { build_id: spec.id },
    );
    if (!asked.ok) return toolResult(asked);
    m.buildJobs.start({ engine: m.engine, ctx: m.ctx, log: m.log, interrupt: m.stop }, spec, {
      partName: ask.apply.part_name ?? before?.part?.name ?? `build ${spec.id}`,
      ...(ask.on_manual_edit === undefined ? {} : { onManualEdit: ask.on_manual_edit }),
    });
  }
  const job = await waitForJob(m.buildJobs, spec.id, ask.apply.wait_ms ?? 2000, progress);
  const s = summarizePlan(big.plan);
  return toolResult(
    ok({
      plan_id: spec.id,
      plan_hash: big.plan.planHash,
      kind: "build" as const,
      changed_blocks: big.plan.count,
      unchanged_blocks: 0,
      filtered_blocks: s.filtered_blocks,
      dependencies: s.dependencies,
      region: boxJson(big.plan.bounds!),
      expires_at: new Date().toISOString(),
      materials: s.palette.slice(0, MATERIALS),
      materials_truncated: s.palette.length > MATERIALS,
      warnings: [
        `a build of ${big.plan.count} positions: ${tiles} tiles of up to ${big.tileBlocks}, applied in the background as one job (${spec.id}); the same call again gives its progress, batch_undo undoes it`,
      ],
      manual_edits: { kept: 0, conflicts: job.tiles.conflicts, replaced: 0, sample: [] },
      operation: jobAsOperation(job, big.plan.count),
    }),
  );
}

/** A build job in brief, as a prepare's `apply` reports an operation. */
function jobAsOperation(job: BatchJobStatus, positions: number): Record<string, unknown> {
  const status =
    job.state === "running"
      ? "applying"
      : job.state === "done"
        ? "applied"
        : job.state === "failed"
          ? "failed"
          : job.tiles.conflicts > 0
            ? "conflict"
            : "cancelled";
  return {
    operation_id: job.id,
    status,
    written: job.written_blocks,
    total: positions,
    conflicts: job.tiles.conflicts,
    part: job.part,
    error: job.error,
    saved: null,
  };
}
