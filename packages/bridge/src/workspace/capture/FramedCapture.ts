import { boxFromCorners, fail, mcbError, ok, type Box3, type Result } from "@mcb/blocks";
import type { Engine, RequestContext, WorldAdapter } from "@mcb/engine";
import {
  CAPTURE_LIMITS,
  DEFAULT_VIEW_DISTANCE,
  MAX_VIEW_DISTANCE,
  framePose,
  frameSize,
  tilePngs,
  viewTiles,
  type CameraPose,
  type Capture,
  type FrameSide,
} from "@mcb/render";
import { captureProjectView } from "./ProjectCapture.js";

type Vec3 = { readonly x: number; readonly y: number; readonly z: number };

/** What to frame: a part's bounds or a box, from one side or up to 4 sides tiled in one image. */
/** The default size of each tile of several framed views: large enough to judge a roof (320 × 180 was not). */
const TILE = { width: 480, height: 270 } as const;

export interface FrameRequest {
  /** With neither part_id nor min and max: `box`, when the caller has one (a plan's writes). */
  readonly box?: Box3;
  readonly part_id?: string;
  readonly min?: Vec3;
  readonly max?: Vec3;
  readonly side?: FrameSide;
  readonly views?: readonly FrameSide[];
  readonly width?: number;
  readonly height?: number;
}

export interface FramedCapture {
  readonly capture: Capture & { readonly observedAt: string };
  /** One pose per view, in tile order. */
  readonly poses: readonly CameraPose[];
  readonly box: Box3;
  /** The sides whose camera stands inside a block (something else stands there: a taller neighbour): their tiles show that block. */
  readonly blocked: readonly FrameSide[];
}

/**
 * camera_capture's `frame`: each view's pose shows the whole box with a margin (`framePose`), its
 * fog distance reaches the box's far corner; several views are drawn side by side (2) or in a
 * 2 × 2 grid (3–4) in one PNG of the requested size (default: one view 640 × 360 worth of pixels
 * shaped like the box, several in tiles of 480 × 270). A side whose camera stands inside a block is
 * named in `blocked`. Errors: invalid_request
 * (frame), not_found (part), and those of `captureProjectView`.
 */
export async function captureFramed(
  engine: Engine,
  ctx: RequestContext,
  world: Pick<WorldAdapter, "read" | "info">,
  f: FrameRequest,
  viewDistance?: number,
): Promise<Result<FramedCapture>> {
  const box = await frameBox(engine, ctx, f);
  if (!box.ok) return box;
  const sides = f.views ?? [f.side ?? "iso"];
  // One view without a size: shaped like the box from that side; several: tiles of TILE each (two side by side, up to four in two rows).
  const open = f.width === undefined && f.height === undefined && sides.length === 1 ? frameSize(box.value, sides[0]!) : null;
  const tiled = sides.length > 1 ? { width: TILE.width * 2, height: TILE.height * (sides.length > 2 ? 2 : 1) } : null;
  const width = f.width ?? open?.width ?? tiled?.width ?? CAPTURE_LIMITS.defaultWidth;
  const height = f.height ?? open?.height ?? tiled?.height ?? CAPTURE_LIMITS.defaultHeight;
  if (sides.length < 1 || sides.length > 4) return fail(mcbError("invalid_request", "views takes 1 to 4 sides", { reason: "frame" }));
  const tiles = viewTiles(sides.length, width, height);
  const poses: CameraPose[] = [];
  const parts: Array<{ png: Buffer; x: number; y: number }> = [];
  let first: (Capture & { observedAt: string }) | null = null;
  let hits = 0;
  const blocked: FrameSide[] = [];
  for (const [i, side] of sides.entries()) {
    const t = tiles[i]!;
    const pose = framePose(box.value, side, { width: t.width, height: t.height });
    const b = box.value;
    const reach =
      Math.hypot(pose.x - (b.minX + b.maxX + 1) / 2, pose.y - (b.minY + b.maxY + 1) / 2, pose.z - (b.minZ + b.maxZ + 1) / 2) +
      Math.hypot(b.maxX - b.minX + 1, b.maxY - b.minY + 1, b.maxZ - b.minZ + 1) / 2 +
      2;
    const r = await captureProjectView(
      engine,
      ctx,
      world,
      pose,
      viewDistance ?? Math.min(MAX_VIEW_DISTANCE, Math.max(DEFAULT_VIEW_DISTANCE, Math.ceil(reach))),
    );
    if (!r.ok) return r;
    first ??= r.value;
    if (r.value.insideBlock) blocked.push(side);
    hits += r.value.hitFraction * t.width * t.height;
    poses.push(pose);
    parts.push({ png: r.value.png, x: t.x, y: t.y });
  }
  const png = sides.length === 1 ? parts[0]!.png : tilePngs(width, height, parts);
  return ok({
    capture: { ...first!, png, width, height, hitFraction: hits / (width * height), insideBlock: blocked.length > 0 },
    poses,
    box: box.value,
    blocked,
  });
}

async function frameBox(engine: Engine, ctx: RequestContext, f: FrameRequest): Promise<Result<Box3>> {
  const byPart = f.part_id !== undefined;
  const byBox = f.min !== undefined || f.max !== undefined;
  if (!byPart && !byBox && f.box !== undefined) {
    if (f.views !== undefined && f.side !== undefined) return fail(mcbError("invalid_request", "frame takes side or views, not both", { reason: "frame" }));
    return ok(f.box);
  }
  if (byPart === byBox || (byBox && (f.min === undefined || f.max === undefined)))
    return fail(mcbError("invalid_request", "frame takes part_id, or min and max", { reason: "frame" }));
  if (f.views !== undefined && f.side !== undefined) return fail(mcbError("invalid_request", "frame takes side or views, not both", { reason: "frame" }));
  if (byBox) return ok(boxFromCorners(f.min!, f.max!));
  const part = await engine.partGet(ctx, { part_id: f.part_id! });
  if (!part.ok) return part;
  const bounds = part.value.bounds;
  if (bounds === null) return fail(mcbError("invalid_request", `part ${f.part_id} holds no blocks (retired): nothing to frame`, { reason: "frame" }));
  return ok({ minX: bounds.min.x, minY: bounds.min.y, minZ: bounds.min.z, maxX: bounds.max.x, maxY: bounds.max.y, maxZ: bounds.max.z });
}
