import { fail, mcbError, ok, type Result, type Box3 } from "@mcb/blocks";
import { resolvePose, type CameraPose } from "./CameraPose.js";
import { frustumSections } from "./FrustumSections.js";
import { defaultWorkers, renderPng } from "./RenderPool.js";
import { Look, LOOK_STRIDE, lookAt, SURFACE_OPAQUE } from "./Scene.js";
import { SectionGrid } from "./SectionGrid.js";

/** Authoritative block reads (the engine's `WorldAdapter.read` fits): states in y, z, x order. */
export interface BlockSource {
  read(box: Box3): Promise<{ readonly palette: readonly string[]; readonly states: Uint32Array }>;
}

export interface CaptureOptions {
  /** Readable area (project area ∩ build height); blocks outside are not read and draw nothing. */
  readonly bounds: Box3;
  /** View distance in blocks (default 128, at most 256). */
  readonly maxDistance?: number;
  /** Most 16³ sections read for one capture (default 4096). */
  readonly maxSections?: number;
  /**
   * Recognises a read error meaning "not loaded" (a server's chunk that is not in memory): such a
   * section draws nothing and is counted in `sectionsUnloaded`. Other errors propagate.
   */
  readonly isUnloaded?: (error: unknown) => boolean;
  /**
   * Threads that ray-cast the image (default: the machine's cores, at most 8; 1 = this thread
   * only). The image bytes are the same for any count.
   */
  readonly workers?: number;
  /** Darken face corners next to other blocks (default true). */
  readonly ambientOcclusion?: boolean;
}

export interface Capture {
  readonly png: Buffer;
  readonly mimeType: "image/png";
  readonly width: number;
  readonly height: number;
  readonly eye: { readonly x: number; readonly y: number; readonly z: number };
  readonly sectionsRead: number;
  readonly sectionsWithBlocks: number;
  /** Sections in view that the world has not loaded (drawn as nothing). */
  readonly sectionsUnloaded: number;
  /** Fraction of pixels showing at least one block (0 = only sky). */
  readonly hitFraction: number;
  readonly insideBlock: boolean;
  /** Threads that drew the image: the `workers` asked for, or 1 when workers could not run (same bytes). */
  readonly threads: number;
}

export const DEFAULT_VIEW_DISTANCE = 128;
export const MAX_VIEW_DISTANCE = 256;

/**
 * Renders a camera capture from block reads: the sections inside the view frustum are read through
 * `source` (never generated), then every pixel is ray-cast. Deterministic for the same blocks and
 * pose. Errors: invalid_request (pose, distance), budget_exceeded (too many sections).
 */
export async function captureCamera(source: BlockSource, pose: CameraPose, options: CaptureOptions): Promise<Result<Capture>> {
  const p = resolvePose(pose);
  if (!p.ok) return p;
  const maxDistance = options.maxDistance ?? DEFAULT_VIEW_DISTANCE;
  if (!(maxDistance >= 1 && maxDistance <= MAX_VIEW_DISTANCE))
    return fail(mcbError("invalid_request", `view distance must be within 1..${MAX_VIEW_DISTANCE}`, { reason: "view_distance" }));
  const sections = frustumSections(p.value, maxDistance, options.bounds);
  const maxSections = options.maxSections ?? 4096;
  const workers = options.workers ?? defaultWorkers();
  if (!(Number.isInteger(workers) && workers >= 1 && workers <= 64))
    return fail(mcbError("invalid_request", "workers must be an integer within 1..64", { reason: "workers" }));
  if (sections.length > maxSections)
    return fail(mcbError("budget_exceeded", `the view needs ${sections.length} sections; the limit is ${maxSections}`, { limit: maxSections }));
  const grid = new SectionGrid();
  const b = options.bounds;
  let unloaded = 0;
  for (const [sx, sy, sz] of sections) {
    const box = {
      minX: Math.max(sx * 16, b.minX),
      minY: Math.max(sy * 16, b.minY),
      minZ: Math.max(sz * 16, b.minZ),
      maxX: Math.min(sx * 16 + 15, b.maxX),
      maxY: Math.min(sy * 16 + 15, b.maxY),
      maxZ: Math.min(sz * 16 + 15, b.maxZ),
    };
    let read: Awaited<ReturnType<BlockSource["read"]>>;
    try {
      read = await source.read(box);
    } catch (error) {
      if (options.isUnloaded?.(error) !== true) throw error;
      unloaded++;
      continue;
    }
    const full =
      box.minX === sx * 16 &&
      box.minY === sy * 16 &&
      box.minZ === sz * 16 &&
      box.maxX === sx * 16 + 15 &&
      box.maxY === sy * 16 + 15 &&
      box.maxZ === sz * 16 + 15;
    if (full) {
      grid.addSection(sx, sy, sz, read.palette, read.states);
      continue;
    }
    // A section cut by the bounds: the rest is air.
    const palette = [...read.palette, "minecraft:air"];
    const states = new Uint32Array(4096).fill(read.palette.length);
    let i = 0;
    for (let y = box.minY; y <= box.maxY; y++)
      for (let z = box.minZ; z <= box.maxZ; z++)
        for (let x = box.minX; x <= box.maxX; x++, i++) states[((y & 15) << 8) | ((z & 15) << 4) | (x & 15)] = read.states[i]!;
    grid.addSection(sx, sy, sz, palette, states);
  }
  if (sections.length > 0 && unloaded === sections.length)
    return fail(
      mcbError("camera_unavailable", "nothing in view is loaded on the server (reads never load chunks); move the camera near players or loaded chunks", {
        reason: "scene_not_loaded",
        sections: unloaded,
      }),
    );
  const scene = grid.seal();
  const { width, height } = p.value;
  const [x, y, z] = p.value.eye;
  const inside = lookAt(scene, Math.floor(x), Math.floor(y), Math.floor(z));
  const { png, hits, threads } = await renderPng(scene, p.value, maxDistance, { ambientOcclusion: options.ambientOcclusion ?? true }, workers);
  return ok({
    png,
    mimeType: "image/png",
    width,
    height,
    eye: { x, y, z },
    sectionsRead: sections.length,
    sectionsWithBlocks: grid.nonEmpty,
    sectionsUnloaded: unloaded,
    hitFraction: hits / (width * height),
    threads,
    insideBlock: inside !== 0 && scene.looks[inside * LOOK_STRIDE + Look.surface] === SURFACE_OPAQUE,
  });
}
