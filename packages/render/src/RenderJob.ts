import type { ResolvedPose } from "./CameraPose.js";
import { deflateChunk, PNG_CHUNK_ROWS, pngChunkCount, type PngPart } from "./PngEncode.js";
import { raycastRows, RayScratch, type RayJob } from "./Raycaster.js";
import type { Scene } from "./Scene.js";
import type { ShadeOptions } from "./Shading.js";

/** Rows claimed at a time: small enough to balance workers, large enough to amortize the claim. */
export const BAND_ROWS = 8;

/**
 * One image to render and compress, shared by every thread working on it: bands of rows are
 * claimed from `counters[0]`, then PNG chunks from `counters[1]`; `counters[2]` ≠ 0 aborts the
 * job; `rowsDone[c]` counts the rows of PNG chunk c already drawn (a chunk is compressed once all
 * its rows are there).
 */
export interface RenderJob extends RayJob {
  /** width·height·3 bytes (on a SharedArrayBuffer when threads share the job). */
  readonly rgb: Uint8Array;
  readonly counters: Int32Array;
  readonly rowsDone: Int32Array;
}

export interface JobShare {
  readonly hits: number;
  readonly parts: [number, PngPart][];
}

export function createJob(scene: Scene, pose: ResolvedPose, maxDistance: number, options: ShadeOptions, shared: boolean): RenderJob {
  const Buf = shared ? SharedArrayBuffer : ArrayBuffer;
  return {
    scene,
    pose,
    maxDistance,
    options,
    rgb: new Uint8Array(new Buf(pose.width * pose.height * 3)),
    counters: new Int32Array(new Buf(12)),
    rowsDone: new Int32Array(new Buf(4 * pngChunkCount(pose.height))),
  };
}

/**
 * Does this thread's share of a job: draws bands of rows until none are left, then compresses
 * PNG chunks until none are left, waiting for rows other threads are still drawing.
 */
export function workOn(job: RenderJob): JobShare {
  const { height } = job.pose;
  const scratch = new RayScratch(job.pose);
  let hits = 0;
  for (;;) {
    const j0 = Atomics.add(job.counters, 0, BAND_ROWS);
    if (j0 >= height) break;
    const j1 = Math.min(height, j0 + BAND_ROWS);
    hits += raycastRows(job, scratch, j0, j1);
    const c = Math.floor(j0 / PNG_CHUNK_ROWS); // bands never straddle chunks (BAND_ROWS divides PNG_CHUNK_ROWS)
    if (Atomics.add(job.rowsDone, c, j1 - j0) + (j1 - j0) === chunkRows(c, height)) Atomics.notify(job.rowsDone, c);
  }
  const parts: [number, PngPart][] = [];
  const chunks = pngChunkCount(height);
  for (;;) {
    const c = Atomics.add(job.counters, 1, 1);
    if (c >= chunks) break;
    for (let done = Atomics.load(job.rowsDone, c); done < chunkRows(c, height); done = Atomics.load(job.rowsDone, c)) {
      if (Atomics.load(job.counters, 2) !== 0) throw new Error("render job aborted");
      Atomics.wait(job.rowsDone, c, done, 200);
    }
    parts.push([c, deflateChunk(job.rgb, job.pose.width, height, c)]);
  }
  return { hits, parts };
}

/** Stops every thread still working on the job (one failed: its rows will never be drawn). */
export function abortJob(job: RenderJob): void {
  Atomics.store(job.counters, 2, 1);
  for (let c = 0; c < job.rowsDone.length; c++) Atomics.notify(job.rowsDone, c);
}

function chunkRows(c: number, height: number): number {
  return Math.min(PNG_CHUNK_ROWS, height - c * PNG_CHUNK_ROWS);
}
