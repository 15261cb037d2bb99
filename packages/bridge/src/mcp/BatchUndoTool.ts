import { z } from "zod";
import { ok } from "@mcb/blocks";
import type { McpContext } from "../workspace/agent/McpContext.js";
import type { ApplyConsent } from "./ApplyConsent.js";
import { toolResult } from "./ToolResult.js";
import type { ToolTable } from "./ToolTable.js";
import { waitWhile } from "./JobWait.js";

const int = z.number().int();
const error = z.strictObject({ code: z.string(), message: z.string() }).nullable();

/**
 * batch_undo: a whole paste (`p_…`), terrain job (`t_…`) or big build (`b_…`) undone in one call, in the background as
 * `mcb undo <id>` runs it: each of its operations, newest first, a checked undo (blocks people
 * changed since are left and counted). Asking again gives its progress (or, once done, its
 * report), or goes on after a stop.
 * A client that can ask its person does so first above the confirmation size.
 */
export function registerBatchUndo(tools: ToolTable, m: McpContext, consent: ApplyConsent): void {
  tools.register(
    "batch_undo",
    {
      title: "Undo a whole paste, terrain job or build",
      description: "Undo a whole paste, terrain job or big build in the background; call again for progress.",
      inputSchema: {
        batch_id: z.string().max(80).describe("p_…, t_… or b_…"),
        wait_ms: z.number().int().min(0).max(10_000).optional().describe("default 2000"),
      },
      outputSchema: z.strictObject({
        batch_id: z.string(),
        state: z.enum(["running", "done", "stopped", "failed"]),
        operations: int,
        undone: int,
        restored_blocks: int,
        left_as_they_are: int,
        undo_operation_ids: z.array(z.string()),
        error,
      }),
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
      job: {
        running: (a) => a.state === "running",
        cancel: async (a) => void m.undoJobs.cancel(String(a.batch_id)),
      },
    },
    async ({ batch_id, wait_ms }, progress) => {
      const jobs = m.undoJobs;
      if (!jobs.running(batch_id) && jobs.status(batch_id)?.state !== "done") {
        const size = jobs.written(batch_id);
        if (size !== null) {
          const asked = await consent.confirm(`Undo ${batch_id}? It restores up to ${size} blocks it wrote.`, size, { batch_id });
          if (!asked.ok) return toolResult(asked);
        }
        const started = jobs.start({ engine: m.engine, ctx: m.ctx, log: m.log, interrupt: m.stop }, batch_id, { waitSaved: m.saveOnEnd });
        if (!started.ok) return toolResult(started);
      }
      await waitWhile(
        () => jobs.running(batch_id),
        wait_ms ?? 2000,
        progress,
        () => {
          const s = jobs.status(batch_id)!;
          return {
            done: s.restored_blocks,
            message: `${s.undone} of ${s.operations} operations undone, ${s.restored_blocks.toLocaleString("en-US")} blocks restored`,
          };
        },
      );
      return toolResult(ok(jobs.status(batch_id)!));
    },
  );
}
