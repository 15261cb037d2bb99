import type { BatchJobs, BatchJobStatus } from "../workspace/jobs/BatchJobs.js";
import type { ProgressSender } from "./ToolTable.js";
import type { ToolJob } from "./ToolTasks.js";

/** How often a waiting call tells its client the job's progress. */
const PROGRESS_EVERY_MS = 500;

/**
 * Waits up to `ms` for a background batch (terrain_apply, schematic_paste, a big build) while it
 * runs, telling the client its progress (blocks written) twice a second when it asked for
 * progress; then its status, running or not.
 */
export async function waitForJob(jobs: BatchJobs, id: string, ms: number, progress: ProgressSender): Promise<BatchJobStatus> {
  await waitWhile(
    () => jobs.running(id),
    ms,
    progress,
    () => {
      const s = jobs.status(id)!;
      return {
        done: s.written_blocks,
        message: `${s.tiles.applied + s.tiles.empty} of ${s.tiles.total} tiles, ${s.written_blocks.toLocaleString("en-US")} blocks written`,
      };
    },
  );
  return jobs.status(id)!;
}

/**
 * Waits up to `ms` while `running`, telling the client (when it asked for progress) what `now`
 * says twice a second, each time `done` (blocks so far) grew.
 */
export async function waitWhile(
  running: () => boolean,
  ms: number,
  progress: ProgressSender,
  now: () => { readonly done: number; readonly message: string },
): Promise<void> {
  const deadline = Date.now() + ms;
  let told = -1,
    at = 0;
  while (running() && Date.now() < deadline) {
    if (progress !== null && Date.now() - at >= PROGRESS_EVERY_MS) {
      at = Date.now();
      const p = now();
      if (p.done > told) {
        told = p.done;
        await progress(p.done, p.message).catch(() => undefined);
      }
    }
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A background batch's tool as a task (`ToolJob`): running while its answer says so; a cancel stops the job. */
export function batchJob(jobs: BatchJobs, idKey: string): ToolJob {
  return {
    running: (answer) => answer.state === "running",
    cancel: async (answer) => void (await jobs.cancel(String(answer[idKey]))),
  };
}
