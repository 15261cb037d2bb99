import type { RequestTaskStore } from "@modelcontextprotocol/sdk/shared/protocol.js";
import type { CallToolResult, CreateTaskResult } from "@modelcontextprotocol/sdk/types.js";
import { errorResult } from "./ToolResult.js";
import { thrownError } from "../workspace/world/ThrownError.js";

/** A tool whose answer may describe a background job that still runs: a client may call it as a task. */
export interface ToolJob {
  /** Whether the answer says the job still runs (the task then asks again). */
  running(answer: Record<string, unknown>): boolean;
  /** Stops the job an answer describes (tasks/cancel): after the current slice, resumable. */
  cancel(answer: Record<string, unknown>): Promise<void>;
}

/** How long a finished task's result is kept when the client does not say (one hour). */
const DEFAULT_TTL_MS = 3_600_000;
/** The least time between two calls of a task's tool while its job runs. */
const ASK_AGAIN_MS = 200;
/** How often a client is told to ask for the task's status. */
const POLL_INTERVAL_MS = 1_000;

/**
 * A task-augmented tools/call (MCP 2025-11-25 tasks, for a client that opts in): the task is
 * created and answered at once; the call runs in the background, asked again while its answer says
 * the job runs (each call waits for it as a plain call does), and its last answer, an error
 * included, is the task's result (tasks/result). A tasks/cancel stops the job. Clients that do not
 * opt in call the tool again for progress, as before.
 */
export async function runAsTask(
  store: RequestTaskStore,
  ttl: number | undefined,
  call: () => Promise<CallToolResult>,
  job: ToolJob,
): Promise<CreateTaskResult> {
  const task = await store.createTask({ ttl: ttl ?? DEFAULT_TTL_MS, pollInterval: POLL_INTERVAL_MS });
  void (async () => {
    try {
      for (;;) {
        const r = await call();
        const answer = r.structuredContent;
        if (r.isError === true || answer === undefined || !job.running(answer)) {
          await store.storeTaskResult(task.taskId, "completed", r);
          return;
        }
        if ((await store.getTask(task.taskId)).status === "cancelled") {
          await job.cancel(answer);
          return;
        }
        await new Promise((r) => setTimeout(r, ASK_AGAIN_MS)); // a call that waited nothing (wait_ms 0) is not repeated at once
      }
    } catch (e) {
      await store.storeTaskResult(task.taskId, "failed", errorResult(thrownError(e, "the tool"))).catch(() => undefined);
    }
  })();
  return { task };
}
