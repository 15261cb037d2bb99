import { parentPort } from "node:worker_threads";
import { workOn, type RenderJob } from "./RenderJob.js";

/** A render worker: does its share of each job it is sent (see RenderJob.workOn). */
parentPort!.on("message", (job: RenderJob & { readonly id: number }) => {
  try {
    const share = workOn(job);
    parentPort!.postMessage(
      { id: job.id, share },
      share.parts.map(([, p]) => p.data.buffer as ArrayBuffer),
    );
  } catch (error) {
    parentPort!.postMessage({ id: job.id, error: error instanceof Error ? error.message : String(error) });
  }
});
