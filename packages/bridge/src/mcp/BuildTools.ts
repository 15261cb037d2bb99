import type { Result } from "@mcb/blocks";
import type { OperationStatusView } from "@mcb/engine";
import { RecipeSchema } from "@mcb/recipe";
import { z } from "zod";
import type { McpContext } from "./McpContext.js";
import type { ToolTable } from "./ToolTable.js";
import { OperationOutput, PartOutput, PrepareOutput, Vec3 } from "./Schemas.js";
import { toolResult } from "./ToolResult.js";

const TERMINAL = new Set(["applied", "conflict", "cancelled", "failed", "recovery_required"]);

/** Polls until the operation ends or `ms` pass (the call never stays open for a whole build). */
async function waitFor(m: McpContext, r: Result<OperationStatusView>, ms: number): Promise<Result<OperationStatusView>> {
  const deadline = Date.now() + ms;
  let cur = r;
  while (cur.ok && !TERMINAL.has(cur.value.status) && Date.now() < deadline) {
    await new Promise((res) => setTimeout(res, 20));
    cur = await m.engine.operationStatus(m.ctx, { operation_id: cur.value.operation_id });
  }
  return cur;
}

/** build_prepare, build_apply, operation_status/_cancel/_undo_prepare, part_define, part_get. */
export function registerBuildTools(tools: ToolTable, m: McpContext): void {
  tools.register(
    "build_prepare",
    {
      title: "Prepare a build",
      description:
        "Compile a recipe {version: 1, operations: [...]} into a checked, immutable plan against the live world. Nothing is written. Optional: dependencies (positions the build relies on), part_id (restrict writes to a part's exact mask), expected_blocks (every desired position exactly once, from an earlier region_inspect, snapshot_id copied unchanged). Returns plan_id, plan_hash, changed_blocks, region, expires_at.",
      inputSchema: {
        recipe: RecipeSchema,
        dependencies: z.array(Vec3).max(4096).optional(),
        part_id: z.string().max(128).optional(),
        expected_blocks: z.array(z.object({ pos: Vec3, state: z.string().max(1024), snapshot_id: z.string().max(64).optional() })).max(4096).optional(),
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
        "Write a prepared plan in checked slices. Give plan_id, plan_hash and an idempotency_key that stays the same for this logical call: repeating the call returns the same operation. Returns the operation (waits up to wait_ms, default 2000, then poll operation_status). Blocks changed by someone else since preparation are conflicts, never overwritten.",
      inputSchema: {
        plan_id: z.string().max(128),
        plan_hash: z.string().max(64),
        idempotency_key: z.string().min(1).max(128),
        wait_ms: z.number().int().min(0).max(10_000).optional(),
      },
      outputSchema: OperationOutput,
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    },
    async ({ wait_ms, ...input }) => toolResult(await waitFor(m, await m.engine.buildApply(m.ctx, input), wait_ms ?? 2000)),
  );

  tools.register(
    "operation_status",
    {
      title: "Operation status",
      description: "Status, counters and a bounded sample of conflicts of one operation.",
      inputSchema: { operation_id: z.string().max(128) },
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
      inputSchema: { operation_id: z.string().max(128) },
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
        "A reverse plan of an operation's confirmed writes, only where the world still holds what we wrote and nothing touched it since; other blocks are reported as conflicts. Apply it with build_apply.",
      inputSchema: { operation_id: z.string().max(128) },
      outputSchema: PrepareOutput.extend({ undo_of: z.string(), conflicts: z.object({ count: z.number().int(), sample: z.array(z.unknown()) }) }),
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    async (args) => toolResult(await m.engine.operationUndoPrepare(m.ctx, args)),
  );

  tools.register(
    "part_define",
    {
      title: "Define a part",
      description: "Register the blocks actually written by a completed operation as a named part (exact mask). Extensions are separate parts.",
      inputSchema: { name: z.string().min(1).max(64), operation_id: z.string().max(128) },
      outputSchema: PartOutput,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    async (args) => toolResult(await m.engine.partDefine(m.ctx, args)),
  );

  tools.register(
    "part_get",
    {
      title: "Get a part",
      description: "A part's name, bounds, block count and protection. Bounds are for lookup; build_prepare(part_id) enforces the exact mask.",
      inputSchema: { part_id: z.string().max(128) },
      outputSchema: PartOutput,
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    async (args) => toolResult(await m.engine.partGet(m.ctx, args)),
  );
}
