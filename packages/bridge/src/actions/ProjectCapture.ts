import { ok, type Result } from "@mcb/blocks";
import type { Engine, RequestContext, WorldAdapter } from "@mcb/engine";
import { DEFAULT_VIEW_DISTANCE, captureCamera, type CameraPose, type Capture } from "@mcb/render";

/**
 * A camera capture of the caller's project: the caller's scope is checked now and only the
 * project's area (inside the world's height) is read. Shared by camera_capture and `mcb camera
 * capture`. Errors: permission_denied, invalid_request (pose), budget_exceeded.
 */
export async function captureProjectView(
  engine: Engine,
  ctx: RequestContext,
  world: Pick<WorldAdapter, "read" | "info">,
  pose: CameraPose,
  viewDistance: number = DEFAULT_VIEW_DISTANCE,
): Promise<Result<Capture & { readonly observedAt: string }>> {
  const scope = engine.projectScope(ctx);
  if (!scope.ok) return scope;
  const info = await world.info();
  const a = scope.value.area;
  const bounds = { minX: a.minX, minY: Math.max(a.minY, info.minY), minZ: a.minZ, maxX: a.maxX, maxY: Math.min(a.maxY, info.maxY), maxZ: a.maxZ };
  const observedAt = new Date().toISOString();
  const r = await captureCamera(world, pose, { bounds, maxDistance: viewDistance });
  return r.ok ? ok({ ...r.value, observedAt }) : r;
}
