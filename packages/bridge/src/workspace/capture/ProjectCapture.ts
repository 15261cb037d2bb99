import { fail, mcbError, ok, type Result } from "@mcb/blocks";
import { isChunkNotLoaded, isHostCrash, type Engine, type RequestContext, type WorldAdapter } from "@mcb/engine";
import { DEFAULT_VIEW_DISTANCE, captureCamera, type CameraPose, type Capture } from "@mcb/render";

/**
 * A camera capture of the caller's project: the caller's scope is checked now and only the
 * project's area (inside the world's height) is read. Shared by camera_capture and `mcb camera
 * capture`. Sections the server has not loaded draw nothing and are counted. Errors:
 * permission_denied, invalid_request (pose), budget_exceeded, camera_unavailable (nothing in view
 * is loaded), busy (the world is unreachable).
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
  try {
    const info = await world.info();
    const a = scope.value.area;
    const bounds = { minX: a.minX, minY: Math.max(a.minY, info.minY), minZ: a.minZ, maxX: a.maxX, maxY: Math.min(a.maxY, info.maxY), maxZ: a.maxZ };
    const observedAt = new Date().toISOString();
    const r = await captureCamera(world, pose, { bounds, maxDistance: viewDistance, isUnloaded: isChunkNotLoaded });
    return r.ok ? ok({ ...r.value, observedAt }) : r;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return fail(mcbError("busy", `the world is unavailable: ${message}`, { reason: isHostCrash(error) ? "host_down" : "world_unavailable" }));
  }
}
