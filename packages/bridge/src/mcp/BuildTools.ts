import { RecipeSchema } from "@mcb/recipe";
import { z } from "zod";
import { waitForOperation, waitSaved } from "../workspace/OperationWait.js";
import type { McpContext } from "../workspace/McpContext.js";
import type { ToolTable } from "./ToolTable.js";
import { ConflictOutput, ManualEditInputs, OperationId, OperationOutput, OperationSummaryOutput, PartDiffOutput, PartId, PartOutput, PrepareFields, PrepareOutput, Status, Vec3 } from "./Schemas.js";
import { toolResult } from "./ToolResult.js";

/** build_prepare, build_apply, operation_status/_cancel/_undo_prepare/_list, part_define/_get/_diff/_rename/_delete. */
export function registerBuildTools(tools: ToolTable, m: McpContext): void {
  tools.register(
    "build_prepare",
    {
      title: "Prepare a build",
      description:
        "Compile a recipe {version: 1, operations: [...]} into a checked, immutable plan against the live world. Nothing is written. Blocks a person changed by hand are merged: kept where your design there is unchanged (manual_edits.kept); where it differs the plan is refused (conflict, reason manual_edits, with the exact positions): ask the person, then keep them (on_manual_edit: \"keep\"), change the design, or replace only the positions they agreed to. Optional: dependencies (positions the build relies on), part_id (restrict writes to a part's exact mask), expected_blocks (every desired position exactly once, from an earlier region_inspect, snapshot_id copied unchanged). Returns plan_id, plan_hash, changed_blocks, region, expires_at, manual_edits. A plan with changed_blocks 0 is already in the world: do not apply it.",
      inputSchema: {
        recipe: RecipeSchema,
        dependencies: z.array(Vec3).max(4096).optional().describe("positions the build relies on but does not write (supports, clear passages): a change there stops the apply"),
        part_id: z.string().max(128).optional().describe("restrict every write to this part's exact mask"),
        expected_blocks: z
          .array(
            z.strictObject({
              pos: Vec3,
              state: z.string().max(1024).describe("the state region_inspect reported there"),
              snapshot_id: z.string().max(64).optional().describe("the block entity's snapshot_id, copied unchanged (required where there is one)"),
            }),
          )
          .max(4096)
          .optional()
          .describe("what you saw: every desired position exactly once; a change since is stale_snapshot"),
        ...ManualEditInputs,
      },
      outputSchema: PrepareOutput,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    async (args) => toolResult(await m.engine.buildPrepare(m.ctx, args)),
  );

  tools.register(
    "build_apply",
    {
      title: "Apply a prepared plan",
      description:
        "Write a prepared plan in checked slices. Give plan_id, plan_hash and an idempotency_key that stays the same for this logical call: repeating the call returns the same operation. A plan is applied once (another key: plan_already_applied). Returns the operation (waits up to wait_ms, default 2000, then poll operation_status). Blocks changed by someone else since preparation are conflicts, never overwritten — also when they were changed back (changed_since_prepare).",
      inputSchema: {
        plan_id: z.string().max(128).describe("plan_id from build_prepare (or an undo, schematic or terrain prepare)"),
        plan_hash: z.string().max(64).describe("plan_hash from the same answer"),
        idempotency_key: z.string().min(1).max(128).describe("1–128 printable characters, no spaces; the same for retries of this one apply"),
        wait_ms: z.number().int().min(0).max(10_000).optional().describe("wait up to this long for the operation to end (default 2000)"),
        wait_saved: z.boolean().optional().describe("once it ended, also wait until the server saved its blocks to disk (saved: true); a server crash can then no longer lose them"),
      },
      outputSchema: OperationOutput,
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
    async ({ wait_ms, wait_saved, ...input }) => {
      const done = await waitForOperation(m.engine, m.ctx, await m.engine.buildApply(m.ctx, input), wait_ms ?? 2000);
      return toolResult(wait_saved === true ? (await waitSaved(m.engine, m.ctx, done)).status : done);
    },
  );

  tools.register(
    "operation_status",
    {
      title: "Operation status",
      description: "Status, counters and a bounded sample of conflicts of one operation.",
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
      description: "Stop further slices. Completed slices stay written and in history (undo them with operation_undo_prepare).",
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
        "A reverse plan of an operation's confirmed writes, only where the world still holds what we wrote and nothing touched it since; other blocks are reported as conflicts (a person's edit is never undone). Apply it with build_apply. Undoing removes the blocks from the operation's part (a part left empty is retired). An operation already undone is refused (already_undone): undo the undo to redo. uncertain_blocks: blocks of a slice never confirmed (after a crash), left as they are.",
      inputSchema: { operation_id: OperationId },
      outputSchema: z.strictObject({ ...PrepareFields, undo_of: z.string(), conflicts: z.strictObject({ count: z.number().int(), sample: z.array(ConflictOutput) }), uncertain_blocks: z.number().int() }),
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    async (args) => toolResult(await m.engine.operationUndoPrepare(m.ctx, args)),
  );

  tools.register(
    "operation_list",
    {
      title: "List operations",
      description:
        "The project's operations, newest first, in pages (default 20, at most 50), optionally only one kind, one status, or those of a part (prepared with its part_id, plus the one it was defined from). Pass next_cursor with the same filters for the next page.",
      inputSchema: {
        kind: z.enum(["build", "undo"]).optional().describe("only builds or only undos"),
        status: Status.optional().describe("only operations in this status"),
        part_id: z.string().max(128).optional().describe("only operations of this part"),
        limit: z.number().int().min(1).max(50).optional().describe("operations per page, 1..50, default 20"),
        cursor: z.string().max(200).optional().describe("next_cursor of the previous page, unchanged"),
      },
      outputSchema: z.strictObject({ operations: z.array(OperationSummaryOutput), next_cursor: z.string().optional() }),
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    async (args) => toolResult(await m.engine.operationList(m.ctx, args)),
  );

  tools.register(
    "part_define",
    {
      title: "Define a part",
      description:
        "Register the blocks actually written by a finished operation (applied, or stopped by a conflict or cancel; not undone) as a named part (exact mask), or by several (operation_ids: the tiles of one schematic or terrain batch become one part). Give operation_id or operation_ids, not both. Parts never overlap (part_overlap names the other part and the positions). Extensions are separate parts.",
      inputSchema: {
        name: z.string().min(1).max(64).describe("1–64 printable characters, e.g. \"north tower roof\""),
        operation_id: OperationId.optional(),
        operation_ids: z.array(OperationId).min(1).max(1024).optional().describe("1..1024 distinct applied operations whose writes together form the part"),
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
      description: "A part's name, bounds, block count, revision and protection; retired: undo emptied it. Bounds are for lookup; build_prepare(part_id) enforces the exact mask.",
      inputSchema: { part_id: PartId },
      outputSchema: PartOutput,
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    async (args) => toolResult(await m.engine.partGet(m.ctx, args)),
  );

  tools.register(
    "part_diff",
    {
      title: "Find people's edits",
      description:
        "Where the world no longer holds what we built, over a part (part_id) or an operation's writes (operation_id): count, compact boxes and a sample with expected (ours) and actual. observed: seen as a player's or mcb edit's change; the rest were found by comparing content. Use it before rebuilding a part a person may have changed.",
      inputSchema: { part_id: PartId.optional(), operation_id: OperationId.optional() },
      outputSchema: PartDiffOutput,
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    async (args) => toolResult(await m.engine.partDiff(m.ctx, args)),
  );

  tools.register(
    "part_rename",
    {
      title: "Rename a part",
      description: "A new name (unique among active parts); the mask and history stay.",
      inputSchema: { part_id: PartId, name: z.string().min(1).max(64).describe('1–64 printable characters, e.g. "north tower roof"') },
      outputSchema: PartOutput,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
    },
    async (args) => toolResult(await m.engine.partRename(m.ctx, args)),
  );

  tools.register(
    "part_delete",
    {
      title: "Delete a part",
      description: "Forget a part (its name and mask). Its blocks stay in the world and its operations stay in history. A protected part is refused.",
      inputSchema: { part_id: PartId },
      outputSchema: PartOutput,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    async (args) => toolResult(await m.engine.partDelete(m.ctx, args)),
  );
}
