import { fail, Interner, isAir, mcbError, ok, type Box3, type Result } from "@mcb/blocks";
import type { Engine, PlanWrites, RegionRead, RequestContext, WorldAdapter } from "@mcb/engine";
import { markedState } from "@mcb/render";

/** How a preview draws a plan: its changes marked (placed, changed, removed), or the plain after-picture. */
export const PREVIEW_OVERLAYS = ["changes", "none"] as const;
export type PreviewOverlay = (typeof PREVIEW_OVERLAYS)[number];

/**
 * The world as it will be once a prepared plan is applied, for the camera: each read is the
 * world's, with the plan's desired state at every position it writes. With the `changes` overlay
 * a written position carries its mark (`markedState`): `place` where the world holds air now,
 * `remove` where the plan writes air over a block (the block drawn as red glass), `change`
 * elsewhere. Nothing is written; the world is read as it is now, so a preview shows the plan over
 * what stands there at the moment of the capture (apply checks it again).
 */
export function previewWorld(world: Pick<WorldAdapter, "read" | "info">, writes: PlanWrites, overlay: PreviewOverlay): Pick<WorldAdapter, "read" | "info"> {
  // The writes by section, so that a read (the camera reads section by section) looks only at its own.
  const bySection = new Map<string, number[]>();
  const p = writes.pos;
  for (let i = 0, w = 0; i < p.length; i += 3, w++) {
    const key = `${p[i]! >> 4},${p[i + 1]! >> 4},${p[i + 2]! >> 4}`;
    let list = bySection.get(key);
    if (list === undefined) bySection.set(key, (list = []));
    list.push(w);
  }
  return {
    info: () => world.info(),
    async read(box: Box3): Promise<RegionRead> {
      const r = await world.read(box);
      const touched: number[] = [];
      for (let sy = box.minY >> 4; sy <= box.maxY >> 4; sy++)
        for (let sz = box.minZ >> 4; sz <= box.maxZ >> 4; sz++)
          for (let sx = box.minX >> 4; sx <= box.maxX >> 4; sx++) {
            const list = bySection.get(`${sx},${sy},${sz}`);
            if (list !== undefined) touched.push(...list);
          }
      if (touched.length === 0) return r;
      const palette = new Interner();
      for (const s of r.palette) palette.id(s);
      const states = Uint32Array.from(r.states);
      const sx = box.maxX - box.minX + 1,
        sz = box.maxZ - box.minZ + 1;
      for (const w of touched) {
        const x = p[w * 3]!,
          y = p[w * 3 + 1]!,
          z = p[w * 3 + 2]!;
        if (x < box.minX || x > box.maxX || y < box.minY || y > box.maxY || z < box.minZ || z > box.maxZ) continue;
        const o = x - box.minX + (z - box.minZ) * sx + (y - box.minY) * sx * sz;
        const after = writes.states[writes.after[w]!]!;
        const now = r.palette[r.states[o]!]!;
        states[o] = palette.id(overlay === "none" ? after : marked(now, after));
      }
      return { ...r, palette: palette.values, states };
    },
  };
}

/**
 * A prepared plan of the caller's project as a world to capture (see `previewWorld`) and the box of
 * its writes (what a framed view shows when it names no part or box). Errors: those of
 * `Engine.planWrites` (not_found, plan_expired), invalid_request for a plan that changes nothing.
 */
export function planPreview(
  engine: Engine,
  ctx: RequestContext,
  world: Pick<WorldAdapter, "read" | "info">,
  planId: string,
  overlay: PreviewOverlay,
): Result<{ readonly world: Pick<WorldAdapter, "read" | "info">; readonly box: Box3 }> {
  const writes = engine.planWrites(ctx, { plan_id: planId });
  if (!writes.ok) return writes;
  if (writes.value.region === null) return fail(mcbError("invalid_request", "this plan changes nothing: capture the world instead", { reason: "empty_plan" }));
  return ok({ world: previewWorld(world, writes.value, overlay), box: writes.value.region });
}

/** The palette entry a written position shows under the `changes` overlay. */
function marked(now: string, after: string): string {
  if (isAir(after)) return isAir(now) ? after : markedState(now, "remove");
  return markedState(after, isAir(now) ? "place" : "change");
}
