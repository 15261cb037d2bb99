import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import type { ResolvedPose } from "./CameraPose.js";
import { assemblePng, type PngPart } from "./PngEncode.js";
import { abortJob, createJob, workOn, type JobShare, type RenderJob } from "./RenderJob.js";
import type { Scene } from "./Scene.js";
import type { ShadeOptions } from "./Shading.js";

/** Default render workers: the machine's cores, at most 8. */
export function defaultWorkers(): number {
  return Math.min(8, availableParallelism());
}

/**
 * The worker script: next to this module once compiled; when this module runs from TypeScript
 * sources (tests), the compiled copy in the package's dist (built before tests run).
 */
function workerUrl(): URL {
  return import.meta.url.endsWith(".ts") ? new URL("../dist/RenderWorker.js", import.meta.url) : new URL("./RenderWorker.js", import.meta.url);
}

interface Pending {
  readonly resolve: (share: JobShare) => void;
  readonly reject: (error: Error) => void;
}

/**
 * Long-lived render workers, created on first use. Idle workers do not keep the process alive.
 * A worker that fails is replaced; its job fails with the worker's error.
 */
class Pool {
  private readonly workers: Worker[] = [];
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;

  private spawn(slot: number): Worker {
    const w = new Worker(workerUrl());
    w.unref();
    w.on("message", (m: { id: number; share?: JobShare; error?: string }) => {
      const p = this.pending.get(m.id);
      if (!p) return;
      this.pending.delete(m.id);
      if (this.pending.size === 0) for (const x of this.workers) x.unref();
      if (m.error !== undefined) p.reject(new Error(`render worker: ${m.error}`));
      else p.resolve(m.share!);
    });
    const lost = (error: Error) => {
      if (this.workers[slot] !== w) return;
      this.workers.splice(slot, 1, this.spawn(slot));
      for (const [id, p] of this.pending) (this.pending.delete(id), p.reject(error));
    };
    w.on("error", lost);
    w.on("exit", (code) => lost(new Error(`render worker exited with code ${code}`)));
    return w;
  }

  async run(job: RenderJob, count: number): Promise<JobShare[]> {
    while (this.workers.length < count) this.workers.push(this.spawn(this.workers.length));
    const used = this.workers.slice(0, count);
    for (const w of used) w.ref();
    try {
      return await Promise.all(
        used.map(
          (w) =>
            new Promise<JobShare>((resolve, reject) => {
              const id = this.nextId++;
              this.pending.set(id, { resolve, reject });
              w.postMessage({ ...job, id });
            }),
        ),
      );
    } catch (error) {
      abortJob(job); // the others stop waiting for rows that will never be drawn
      throw error;
    }
  }
}

const pool = new Pool();

/**
 * Renders and PNG-encodes the image: in this thread when `workers` ≤ 1, else across that many
 * workers claiming bands of rows and then PNG chunks. The bytes do not depend on the worker count.
 */
export async function renderPng(
  scene: Scene,
  pose: ResolvedPose,
  maxDistance: number,
  options: ShadeOptions,
  workers: number,
): Promise<{ png: Buffer; hits: number; threads: number }> {
  let shares: JobShare[];
  let threads = workers;
  if (workers > 1) {
    try {
      shares = await pool.run(createJob(scene, pose, maxDistance, options, true), workers);
    } catch {
      // Workers that cannot start or fail (their error replaced them): this thread draws the
      // same bytes; an error of the drawing itself is thrown from here.
      shares = [workOn(createJob(scene, pose, maxDistance, options, false))];
      threads = 1;
    }
  } else shares = [workOn(createJob(scene, pose, maxDistance, options, false))];
  const parts: PngPart[] = [];
  for (const share of shares) for (const [c, part] of share.parts) parts[c] = part;
  return { png: assemblePng(pose.width, pose.height, parts), hits: shares.reduce((n, s) => n + s.hits, 0), threads };
}
