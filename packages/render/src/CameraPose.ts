import { fail, mcbError, ok, type Result } from "@mcb/blocks";

/**
 * A camera pose in Minecraft conventions: position of the observer's feet (eye 1.62 above), yaw in
 * degrees (0 = south/+z, 90 = west/−x), pitch in degrees (+90 looks straight down), vertical fov.
 */
export interface CameraPose {
  readonly x: number;
  readonly y: number;
  readonly z: number;
  readonly yaw: number;
  readonly pitch: number;
  readonly fov?: number;
  readonly width?: number;
  readonly height?: number;
}

export const EYE_HEIGHT = 1.62;
export const CAPTURE_LIMITS = Object.freeze({
  minSize: 16,
  maxWidth: 1920,
  maxHeight: 1080,
  minFov: 30,
  maxFov: 110,
  defaultFov: 70,
  defaultWidth: 640,
  defaultHeight: 360,
});

export interface ResolvedPose {
  readonly eye: readonly [number, number, number];
  readonly forward: readonly [number, number, number];
  readonly right: readonly [number, number, number];
  readonly up: readonly [number, number, number];
  readonly fov: number;
  readonly width: number;
  readonly height: number;
  /** tan(fov/2) and the aspect ratio, for ray directions. */
  readonly tanHalf: number;
  readonly aspect: number;
}

/** Validates and resolves a pose. Errors: invalid_request with the offending field. */
export function resolvePose(p: CameraPose): Result<ResolvedPose> {
  const bad = (field: string, message: string) => fail(mcbError("invalid_request", `camera pose ${field}: ${message}`, { reason: "pose", field }));
  for (const k of ["x", "y", "z", "yaw", "pitch"] as const) if (typeof p[k] !== "number" || !Number.isFinite(p[k])) return bad(k, "must be a finite number");
  if (Math.abs(p.x) > 30_000_000 || Math.abs(p.z) > 30_000_000 || Math.abs(p.y) > 4096) return bad("x/y/z", "outside the world");
  if (p.pitch < -90 || p.pitch > 90) return bad("pitch", "must be within −90..90");
  const L = CAPTURE_LIMITS;
  const fov = p.fov ?? L.defaultFov;
  const width = p.width ?? L.defaultWidth;
  const height = p.height ?? L.defaultHeight;
  if (typeof fov !== "number" || !(fov >= L.minFov && fov <= L.maxFov)) return bad("fov", `must be within ${L.minFov}..${L.maxFov} degrees`);
  if (!Number.isInteger(width) || width < L.minSize || width > L.maxWidth) return bad("width", `must be an integer within ${L.minSize}..${L.maxWidth}`);
  if (!Number.isInteger(height) || height < L.minSize || height > L.maxHeight) return bad("height", `must be an integer within ${L.minSize}..${L.maxHeight}`);
  const yaw = (p.yaw * Math.PI) / 180;
  const pitch = (p.pitch * Math.PI) / 180;
  const forward = [-Math.sin(yaw) * Math.cos(pitch), -Math.sin(pitch), Math.cos(yaw) * Math.cos(pitch)] as const;
  const right = [-Math.cos(yaw), 0, -Math.sin(yaw)] as const;
  // up = right × forward
  const up = [
    right[1] * forward[2] - right[2] * forward[1],
    right[2] * forward[0] - right[0] * forward[2],
    right[0] * forward[1] - right[1] * forward[0],
  ] as const;
  return ok({ eye: [p.x, p.y + EYE_HEIGHT, p.z], forward, right, up, fov, width, height, tanHalf: Math.tan((fov * Math.PI) / 360), aspect: width / height });
}

/** Direction of the ray through pixel centre (i, j), not normalized. */
export function rayDirection(p: ResolvedPose, i: number, j: number, out: Float64Array): void {
  const sx = ((2 * (i + 0.5)) / p.width - 1) * p.tanHalf * p.aspect;
  const sy = (1 - (2 * (j + 0.5)) / p.height) * p.tanHalf;
  out[0] = p.forward[0] + sx * p.right[0] + sy * p.up[0];
  out[1] = p.forward[1] + sx * p.right[1] + sy * p.up[1];
  out[2] = p.forward[2] + sx * p.right[2] + sy * p.up[2];
}
