import type { BatchJobs, BatchJobStatus } from "../workspace/jobs/BatchJobs.js";
import type { ProgressSender } from "./ToolTable.js";
import type { ToolJob } from "./ToolTasks.js";

/** How often a waiting call tells its client the job's progress. */
const PROGRESS_EVERY_MS = 500;

/**
 * Waits up to `ms` for a background batch (terrain_apply, schematic_paste) while it runs, telling
 * the client its progress (blocks written) twice a second when it asked for progress; then its
 * status, running or not.
 */
export async function waitForJob(jobs: BatchJobs, id: string, ms: number, progress: ProgressSender): Promise<BatchJobStatus> {
  const deadline = Date.now() + ms;
  let told = -1,
    at = 0;
  while (jobs.running(id) && Date.now() < deadline) {
    if (progress !== null && Date.now() - at >= PROGRESS_EVERY_MS) {
      at = Date.now();
      const s = jobs.status(id)!;
      if (s.written_blocks > told) {
        told = s.written_blocks;
        await progress(told, `${s.tiles.applied + s.tiles.empty} of ${s.tiles.total} tiles, ${told.toLocaleString("en-US")} blocks written`).catch(
          () => undefined,
        );
      }
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  return jobs.status(id)!;
}

/** A background batch's tool as a task (`ToolJob`): running while its answer says so; a cancel stops the job. */
export function batchJob(jobs: BatchJobs, idKey: string): ToolJob {
  return {
    running: (answer) => answer.state === "running",
    cancel: async (answer) => void (await jobs.cancel(String(answer[idKey]))),
  };
}
