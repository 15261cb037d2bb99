import type { Box3 } from "@mcb/blocks";
import { CAPTURE_LIMITS, EYE_HEIGHT, type CameraPose } from "./CameraPose.js";

/** Where a framed view stands: beside the box (north of it looking south, …), above it, or at a high corner. */
export const FRAME_SIDES = ["north", "south", "east", "west", "top", "iso"] as const;
export type FrameSide = (typeof FRAME_SIDES)[number];

/** Yaw and pitch of each side (yaw 0 looks south; pitch +90 looks down): sides look 25° down, iso from the south-east corner. */
const ANGLES: Readonly<Record<FrameSide, { readonly yaw: number; readonly pitch: number }>> = {
  north: { yaw: 0, pitch: 25 },
  south: { yaw: 180, pitch: 25 },
  east: { yaw: 90, pitch: 25 },
  west: { yaw: -90, pitch: 25 },
  top: { yaw: 180, pitch: 90 },
  iso: { yaw: 135, pitch: 30 },
};

/** Share of the image kept free on every edge around a framed box. */
export const FRAME_MARGIN = 0.06;

type V = readonly [number, number, number];
const dot = (a: V, b: V): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];

/** The camera axes of a yaw and pitch (the same as `resolvePose`). */
export function cameraAxes(yawDeg: number, pitchDeg: number): { forward: V; right: V; up: V } {
  const yaw = (yawDeg * Math.PI) / 180;
  const pitch = (pitchDeg * Math.PI) / 180;
  const forward: V = [-Math.sin(yaw) * Math.cos(pitch), -Math.sin(pitch), Math.cos(yaw) * Math.cos(pitch)];
  const right: V = [-Math.cos(yaw), 0, -Math.sin(yaw)];
  const up: V = [right[1] * forward[2] - right[2] * forward[1], right[2] * forward[0] - right[0] * forward[2], right[0] * forward[1] - right[1] * forward[0]];
  return { forward, right, up };
}

/**
 * The pose that shows the whole box (its blocks' outer faces) from `side`, as large as the image
 * allows with `FRAME_MARGIN` free on every edge: the box's centre on the view axis, the distance
 * the nearest corner-limited edge needs. Exact for a pinhole camera: every corner projects inside.
 */
export function framePose(box: Box3, side: FrameSide, size: { readonly width?: number; readonly height?: number; readonly fov?: number } = {}): CameraPose {
  const width = size.width ?? CAPTURE_LIMITS.defaultWidth;
  const height = size.height ?? CAPTURE_LIMITS.defaultHeight;
  const fov = size.fov ?? CAPTURE_LIMITS.defaultFov;
  const { yaw, pitch } = ANGLES[side];
  const { forward, right, up } = cameraAxes(yaw, pitch);
  const c: V = [(box.minX + box.maxX + 1) / 2, (box.minY + box.maxY + 1) / 2, (box.minZ + box.maxZ + 1) / 2];
  const ty = Math.tan((fov * Math.PI) / 360) * (1 - 2 * FRAME_MARGIN);
  const tx = ty * (width / height);
  let distance = 0;
  for (const x of [box.minX, box.maxX + 1])
    for (const y of [box.minY, box.maxY + 1])
      for (const z of [box.minZ, box.maxZ + 1]) {
        const d: V = [x - c[0], y - c[1], z - c[2]];
        const a = dot(d, forward);
        // The corner projects inside when |d·right| ≤ tx (a + D) and |d·up| ≤ ty (a + D); keep it a quarter block in front too.
        distance = Math.max(distance, Math.abs(dot(d, right)) / tx - a, Math.abs(dot(d, up)) / ty - a, 0.25 - a);
      }
  distance += 0.005; // room for the pose's rounding to 1/1000 block
  const eye: V = [c[0] - forward[0] * distance, c[1] - forward[1] * distance, c[2] - forward[2] * distance];
  return { x: round(eye[0]), y: round(eye[1] - EYE_HEIGHT), z: round(eye[2]), yaw, pitch, fov, width, height };
}

/** Pixels of a framed image whose size the caller left open: 640 × 360 worth. */
export const FRAME_PIXELS = 640 * 360;

/**
 * An image size for a framed view whose size the caller left open: `FRAME_PIXELS` shaped like the
 * box as seen from `side` (its extent across and up the view), between 9:16 and 16:9, so the box
 * fills the picture instead of a strip of it.
 */
export function frameSize(box: Box3, side: FrameSide): { width: number; height: number } {
  const { right, up } = cameraAxes(ANGLES[side].yaw, ANGLES[side].pitch);
  let across = 0,
    tall = 0;
  for (const x of [box.minX, box.maxX + 1])
    for (const y of [box.minY, box.maxY + 1])
      for (const z of [box.minZ, box.maxZ + 1]) {
        const d: V = [x - (box.minX + box.maxX + 1) / 2, y - (box.minY + box.maxY + 1) / 2, z - (box.minZ + box.maxZ + 1) / 2];
        across = Math.max(across, Math.abs(dot(d, right)));
        tall = Math.max(tall, Math.abs(dot(d, up)));
      }
  const aspect = Math.min(16 / 9, Math.max(9 / 16, across / Math.max(tall, 1e-9)));
  const width = Math.round(Math.sqrt(FRAME_PIXELS * aspect));
  return { width, height: Math.round(width / aspect) };
}

/** Yaw and pitch that look from the eye of feet position `from` at `target` (a block's centre). */
export function lookAtAngles(
  from: { readonly x: number; readonly y: number; readonly z: number },
  target: { readonly x: number; readonly y: number; readonly z: number },
): { yaw: number; pitch: number } {
  const dx = target.x + 0.5 - from.x,
    dy = target.y + 0.5 - (from.y + EYE_HEIGHT),
    dz = target.z + 0.5 - from.z;
  const yaw = (Math.atan2(-dx, dz) * 180) / Math.PI;
  const pitch = (-Math.atan2(dy, Math.hypot(dx, dz)) * 180) / Math.PI;
  return { yaw: round(yaw), pitch: round(Math.max(-90, Math.min(90, pitch))) };
}

/** Tiles of an image holding `count` views (1: whole; 2: side by side; 3–4: a 2 × 2 grid). */
export function viewTiles(count: number, width: number, height: number): Array<{ x: number; y: number; width: number; height: number }> {
  if (count === 1) return [{ x: 0, y: 0, width, height }];
  const half = Math.floor(width / 2);
  if (count === 2)
    return [
      { x: 0, y: 0, width: half, height },
      { x: half, y: 0, width: width - half, height },
    ];
  const mid = Math.floor(height / 2);
  const cells = [
    { x: 0, y: 0, width: half, height: mid },
    { x: half, y: 0, width: width - half, height: mid },
    { x: 0, y: mid, width: half, height: height - mid },
    { x: half, y: mid, width: width - half, height: height - mid },
  ];
  return cells.slice(0, count);
}

const round = (v: number): number => Math.round(v * 1000) / 1000;
