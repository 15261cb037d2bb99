import { RecipeSchema } from "@mcb/recipe";
import { z } from "zod";
import { waitForOperation, waitSaved } from "../workspace/jobs/OperationWait.js";
import { prepareThenApply } from "../workspace/jobs/PrepareApply.js";
import type { McpContext } from "../workspace/agent/McpContext.js";
import type { ToolTable } from "./ToolTable.js";
import {
  AppliedOutput,
  ConflictOutput,
  Kind,
  ManualEditInputs,
  OperationId,
  OperationOutput,
  OperationSummaryOutput,
  PartDetailOutput,
  PartDiffOutput,
  PartId,
  PartOutput,
  PrepareFields,
  PrepareOutput,
  Status,
  Vec3,
} from "./Schemas.js";
import { toolResult } from "./ToolResult.js";
import { PreviewInput, PreviewOutput, withPreview } from "./CameraTools.js";
import type { ApplyConsent } from "./ApplyConsent.js";
import { bigBuildAnswer } from "./BigBuild.js";
import { withTilesWayOut } from "../workspace/jobs/RecipeBatch.js";
import { fail, mcbError } from "@mcb/blocks";

/** build_apply's take_over: parts whose blocks the new part may take (undo gives them back). */
const TakeOver = z.array(z.string().max(128)).max(16).optional().describe("parts to take blocks from");

/** `apply` on an undo prepare: an undo names no part. */
const UndoApplyInput = z
  .strictObject({
    idempotency_key: z.string().min(1).max(128).describe("same on retries"),
    wait_ms: z.number().int().min(0).max(10_000).optional().describe("default 2000"),
  })
  .optional()
  .describe("apply at once");

/** `apply` on a prepare: the same checks, then the apply in the same call. */
const ApplyNowInput = z
  .strictObject({
    idempotency_key: z.string().min(1).max(128).describe("same on retries"),
    part_name: z.string().min(1).max(64).optional().describe("name its blocks as a part"),
    take_over: TakeOver,
    wait_ms: z.number().int().min(0).max(10_000).optional().describe("default 2000"),
  })
  .optional()
  .describe("apply at once if prepared");

/** build_prepare, build_apply, operation_status/_cancel/_undo_prepare/_list, part_define/_get/_diff/_rename/_delete. */
export function registerBuildTools(tools: ToolTable, m: McpContext, consent: ApplyConsent): void {
  registerPrepareAndApply(tools, m, consent);
  registerOperationTools(tools, m);
  registerPartTools(tools, m);
}

/** build_prepare and build_apply. */
function registerPrepareAndApply(tools: ToolTable, m: McpContext, consent: ApplyConsent): void {
  tools.register(
    "build_prepare",
    {
      title: "Prepare a build",
      description:
        "Compile a recipe into a checked plan; with apply, apply it too. People's edits are kept where your design is unchanged, else refused by name (ask; then on_manual_edit keep, redesign, or replace). changed_blocks 0: already built.",
      inputSchema: {
        recipe: RecipeSchema,
        dependencies: z.array(Vec3).max(4096).optional().describe("positions relied on, unwritten"),
        part_id: z.string().max(128).optional().describe("write only in this part"),
        expected_blocks: z
          .array(
            z.strictObject({
              pos: Vec3,
              state: z.string().max(1024).describe("state seen"),
              snapshot_id: z.string().max(64).optional().describe("as reported"),
            }),
          )
          .max(4096)
          .optional()
          .describe("states seen before"),
        ...ManualEditInputs,
        apply: ApplyNowInput,
        preview: PreviewInput.optional(),
      },
      outputSchema: PrepareOutput.extend({ operation: AppliedOutput.optional(), preview: PreviewOutput.optional() }),
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
      // With apply: the operation, or a big build's job, may still run; as a task it is waited for.
      job: {
        running: (a) => (a.operation as { status?: string } | undefined)?.status === "applying",
        cancel: async (a) => {
          const id = String((a.operation as { operation_id: string }).operation_id);
          if (id.startsWith("b_")) await m.buildJobs.cancel(id);
          else await m.engine.operationCancel(m.ctx, { operation_id: id });
        },
      },
    },
    async ({ apply, preview, ...args }, progress) => {
      if (apply !== undefined && preview !== undefined)
        return toolResult(
          fail(
            mcbError("invalid_request", "preview shows a plan before it is written: prepare with preview, look, then build_apply", {
              reason: "preview_with_apply",
            }),
          ),
        );
      const prepared = await m.engine.buildPrepare(m.ctx, args);
      if (!prepared.ok && apply !== undefined) {
        const big = await bigBuildAnswer(m, consent, { ...args, apply }, prepared.error, progress);
        if (big !== null) return big;
      }
      if (!prepared.ok && apply === undefined && preview === undefined) return toolResult(fail(withTilesWayOut(prepared.error)));
      if (prepared.ok) consent.remember(prepared.value.plan_id, prepared.value.manual_edits.replaced);
      if (preview !== undefined) return withPreview(m, prepared, preview);
      if (apply === undefined || !prepared.ok || prepared.value.changed_blocks === 0) return toolResult(prepared);
      const asked = await consent.check(prepared.value.plan_id, prepared.value.manual_edits.replaced);
      if (!asked.ok) return toolResult(asked);
      return toolResult(await prepareThenApply(m.engine, m.ctx, prepared, { ...apply, wait_saved: m.saveOnEnd }));
    },
  );

  tools.register(
    "build_apply",
    {
      title: "Apply a prepared plan",
      description:
        "Apply a prepared plan in checked slices; after a timeout repeat with the same idempotency_key. Changed blocks are conflicts, never overwritten.",
      inputSchema: {
        plan_id: z.string().max(128).describe("from a prepare"),
        plan_hash: z.string().max(64).describe("from the same answer"),
        idempotency_key: z.string().min(1).max(128).describe("same on retries"),
        wait_ms: z.number().int().min(0).max(10_000).optional().describe("default 2000"),
        part_name: z.string().min(1).max(64).optional().describe("name its blocks as a part"),
        take_over: TakeOver,
        wait_saved: z.boolean().optional().describe("wait until saved"),
      },
      outputSchema: OperationOutput,
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
    async ({ wait_ms, wait_saved, ...input }) => {
      const asked = await consent.check(input.plan_id);
      if (!asked.ok) return toolResult(asked);
      const done = await waitForOperation(m.engine, m.ctx, await m.engine.buildApply(m.ctx, input), wait_ms ?? 2000);
      return toolResult((wait_saved ?? m.saveOnEnd) ? (await waitSaved(m.engine, m.ctx, done)).status : done);
    },
  );
}

/** operation_status, _cancel, _undo_prepare and _list. */
function registerOperationTools(tools: ToolTable, m: McpContext): void {
  tools.register(
    "operation_status",
    {
      title: "Operation status",
      description: "One operation: status, counters, conflicts.",
      inputSchema: { operation_id: OperationId },
      outputSchema: OperationOutput,
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    async (args) => toolResult(await m.engine.operationStatus(m.ctx, args)),
  );

  tools.register(
    "operation_cancel",
    {
      title: "Cancel an operation",
      description: "Stop after the current slice; written slices stay (undoable).",
      inputSchema: { operation_id: OperationId },
      outputSchema: OperationOutput,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    async (args) => toolResult(await m.engine.operationCancel(m.ctx, args)),
  );

  tools.register(
    "operation_undo_prepare",
    {
      title: "Prepare an undo",
      description:
        "Plan restoring what an operation replaced, only where the world still holds our blocks; others are conflicts. Apply with build_apply. Undo an undo to redo.",
      inputSchema: { operation_id: OperationId, apply: UndoApplyInput },
      outputSchema: z.strictObject({
        ...PrepareFields,
        undo_of: z.string(),
        conflicts: z.strictObject({ count: z.number().int(), sample: z.array(ConflictOutput) }),
        uncertain_blocks: z.number().int(),
        operation: AppliedOutput.optional(),
      }),
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    },
    async ({ apply, ...args }) => {
      const prepared = await m.engine.operationUndoPrepare(m.ctx, args);
      return toolResult(apply === undefined ? prepared : await prepareThenApply(m.engine, m.ctx, prepared, { ...apply, wait_saved: m.saveOnEnd }));
    },
  );

  tools.register(
    "operation_list",
    {
      title: "List operations",
      description: "Operations, newest first, paged; filter by kind, status or part.",
      inputSchema: {
        kind: Kind.optional().describe("only this kind"),
        status: Status.optional().describe("only this status"),
        part_id: z.string().max(128).optional().describe("only this part"),
        limit: z.number().int().min(1).max(50).optional().describe("page size, default 20"),
        cursor: z.string().max(200).optional().describe("next_cursor"),
      },
      outputSchema: z.strictObject({ operations: z.array(OperationSummaryOutput), next_cursor: z.string().optional() }),
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    async (args) => toolResult(await m.engine.operationList(m.ctx, args)),
  );
}

/** part_define, _get, _diff, _rename and _delete. */
function registerPartTools(tools: ToolTable, m: McpContext): void {
  tools.register(
    "part_define",
    {
      title: "Define a part",
      description: "Name the blocks written by one or more finished operations as a part (exact mask). Parts never overlap.",
      inputSchema: {
        name: z.string().min(1).max(64).describe('1–64 printable characters, e.g. "north tower roof"'),
        operation_id: OperationId.optional(),
        operation_ids: z.array(OperationId).min(1).max(1024).optional().describe("operations of one part"),
      },
      outputSchema: PartOutput,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    async (args) => toolResult(await m.engine.partDefine(m.ctx, args)),
  );

  tools.register(
    "part_get",
    {
      title: "Get a part",
      description: "A part: name, bounds, count, revision; retired when undo emptied it.",
      inputSchema: { part_id: PartId },
      outputSchema: PartDetailOutput,
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    async (args) => toolResult(await m.engine.partGet(m.ctx, args)),
  );

  tools.register(
    "part_diff",
    {
      title: "Find people's edits",
      description:
        "What people changed in what we built: a part, an operation, part_ids or a box; count, boxes, sample, each part's share. Use before rebuilding.",
      inputSchema: {
        part_id: PartId.optional(),
        operation_id: OperationId.optional(),
        part_ids: z.array(z.string().max(128)).max(32).optional().describe("several parts"),
        min: Vec3.optional().describe("box"),
        max: Vec3.optional().describe("box"),
      },
      outputSchema: PartDiffOutput,
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    async (args) => toolResult(await m.engine.partDiff(m.ctx, args)),
  );

  tools.register(
    "part_rename",
    {
      title: "Rename a part",
      description: "Rename a part; its blocks and history stay.",
      inputSchema: { part_id: PartId, name: z.string().min(1).max(64).describe('e.g. "north tower"') },
      outputSchema: PartOutput,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    async (args) => toolResult(await m.engine.partRename(m.ctx, args)),
  );

  tools.register(
    "part_delete",
    {
      title: "Delete a part",
      description: "Forget a part; its blocks and operations stay.",
      inputSchema: { part_id: PartId },
      outputSchema: PartOutput,
      // Destructive: the part's name, mask and protection are gone for good (its blocks stay).
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    },
    async (args) => toolResult(await m.engine.partDelete(m.ctx, args)),
  );
}
