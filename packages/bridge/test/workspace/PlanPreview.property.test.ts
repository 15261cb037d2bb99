import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { isAir } from "@mcb/blocks";
import type { PlanWrites, WorldAdapter } from "@mcb/engine";
import { markOf, type CameraPose } from "@mcb/render";
import { Harness, unwrap } from "@mcb/property-tests";
import { previewWorld } from "../../src/workspace/capture/PlanPreview.js";
import { captureProjectView } from "../../src/workspace/capture/ProjectCapture.js";

/**
 * A plan's preview is the world as the plan leaves it: with `overlay: "none"` its picture equals,
 * pixel for pixel, the capture from the same pose once the plan is applied; with the `changes`
 * overlay exactly the plan's positions carry a mark, of the kind the world and the plan say.
 */
const BLOCKS = [
  "minecraft:stone_bricks",
  "minecraft:oak_planks",
  "minecraft:glass",
  "minecraft:air",
  "minecraft:spruce_stairs[facing=east]",
  "minecraft:oak_fence",
];
const small = fc.integer({ min: -6, max: 6 });
const vec = fc.record({ x: small, y: fc.integer({ min: 64, max: 72 }), z: small });
const box = fc.record({ type: fc.constant("box"), min: vec, max: vec, block: fc.constantFrom(...BLOCKS), hollow: fc.boolean() });
const recipe = fc.array(box, { minLength: 1, maxLength: 4 }).map((operations) => ({ version: 1, operations }));
const pose = fc.record({
  x: fc.double({ min: -30, max: 30, noNaN: true }),
  y: fc.double({ min: 66, max: 90, noNaN: true }),
  z: fc.double({ min: -30, max: 30, noNaN: true }),
});

/** Looks at the arena's middle from `at`: a small image, so a run takes milliseconds. */
function poseAt(at: { x: number; y: number; z: number }): CameraPose {
  const dx = 0.5 - at.x,
    dy = 68 - at.y,
    dz = 0.5 - at.z;
  const yaw = (Math.atan2(-dx, dz) * 180) / Math.PI;
  const pitch = (-Math.atan2(dy, Math.hypot(dx, dz)) * 180) / Math.PI;
  return { ...at, yaw, pitch: Math.max(-89, Math.min(89, pitch)), width: 96, height: 64 };
}

/** Every position of `box` read through `world`: its palette entry. */
async function entries(world: Pick<WorldAdapter, "read">, region: NonNullable<PlanWrites["region"]>): Promise<Map<string, string>> {
  const r = await world.read(region);
  const out = new Map<string, string>();
  let i = 0;
  for (let y = region.minY; y <= region.maxY; y++)
    for (let z = region.minZ; z <= region.maxZ; z++) for (let x = region.minX; x <= region.maxX; x++) out.set(`${x},${y},${z}`, r.palette[r.states[i++]!]!);
  return out;
}

/** Why the marks of `preview` are not exactly the plan's writes (null: they are). */
async function markFaults(world: WorldAdapter, writes: PlanWrites, preview: Pick<WorldAdapter, "read">): Promise<string | null> {
  const now = await entries(world, writes.region!);
  const shown = await entries(preview, writes.region!);
  const written = new Map<string, string>();
  for (let i = 0; i < writes.after.length; i++)
    written.set(`${writes.pos[i * 3]},${writes.pos[i * 3 + 1]},${writes.pos[i * 3 + 2]}`, writes.states[writes.after[i]!]!);
  for (const [key, entry] of shown) {
    const { state, mark } = markOf(entry);
    const after = written.get(key);
    const was = now.get(key)!;
    if (after === undefined) {
      if (mark !== null || state !== was) return `${key} is not written by the plan but shows ${entry}`;
      continue;
    }
    const want = isAir(after) ? (isAir(was) ? null : "remove") : isAir(was) ? "place" : "change";
    if (mark !== want) return `${key} (${was} -> ${after}) is marked ${mark ?? "nothing"}, not ${want ?? "nothing"}`;
    if (state !== (mark === "remove" ? was : after)) return `${key} shows ${state}`;
  }
  return null;
}

describe("a plan's preview", () => {
  it("overlay none equals the capture after the plan is applied, pixel for pixel; the changes overlay marks exactly the plan's writes (property)", async () => {
    let compared = 0,
      visible = 0;
    await fc.assert(
      fc.asyncProperty(recipe, recipe, pose, async (base, design, at) => {
        const h = await Harness.create();
        try {
          const first = unwrap(await h.engine.buildPrepare(h.agent, { recipe: base }));
          if (first.changed_blocks > 0) {
            unwrap(await h.engine.buildApply(h.agent, { plan_id: first.plan_id, plan_hash: first.plan_hash, idempotency_key: "base" }));
            await h.engine.settle();
          }
          const plan = unwrap(await h.engine.buildPrepare(h.agent, { recipe: design }));
          if (plan.changed_blocks === 0) return;
          const writes = unwrap(h.engine.planWrites(h.agent, { plan_id: plan.plan_id }));
          expect(await markFaults(h.world, writes, previewWorld(h.world, writes, "changes"))).toBeNull();
          const view = poseAt(at);
          const preview = unwrap(await captureProjectView(h.engine, h.agent, previewWorld(h.world, writes, "none"), view));
          const before = unwrap(await captureProjectView(h.engine, h.agent, h.world, view));
          const op = unwrap(await h.engine.buildApply(h.agent, { plan_id: plan.plan_id, plan_hash: plan.plan_hash, idempotency_key: "design" }));
          await h.engine.settle();
          expect(unwrap(await h.engine.operationStatus(h.agent, { operation_id: op.operation_id })).status).toBe("applied");
          const after = unwrap(await captureProjectView(h.engine, h.agent, h.world, view));
          expect(Buffer.compare(preview.png, after.png)).toBe(0);
          compared++;
          if (Buffer.compare(before.png, after.png) !== 0) visible++; // the plan shows in this picture
        } finally {
          h.close();
        }
      }),
      { numRuns: 25 },
    );
    expect(compared).toBeGreaterThan(10);
    expect(visible).toBeGreaterThan(compared / 2); // the pictures compared show the plan, not only the sky
  }, 120_000);

  it("and a preview that misses a write is caught by both checks (planted)", async () => {
    const h = await Harness.create();
    try {
      const plan = unwrap(
        await h.engine.buildPrepare(h.agent, {
          recipe: { version: 1, operations: [{ type: "box", min: { x: 0, y: 64, z: 0 }, max: { x: 3, y: 67, z: 3 }, block: "minecraft:stone_bricks" }] },
        }),
      );
      const writes = unwrap(h.engine.planWrites(h.agent, { plan_id: plan.plan_id }));
      // The planted preview forgets the plan's last write.
      const missing: PlanWrites = { ...writes, pos: writes.pos.slice(0, -3), after: writes.after.slice(0, -1) };
      expect(await markFaults(h.world, writes, previewWorld(h.world, missing, "changes"))).toMatch(
        /^3,67,3 \(minecraft:air -> minecraft:stone_bricks\) is marked nothing, not place$/,
      );
      const view = poseAt({ x: 12, y: 74, z: 12 });
      const preview = unwrap(await captureProjectView(h.engine, h.agent, previewWorld(h.world, missing, "none"), view));
      unwrap(await h.engine.buildApply(h.agent, { plan_id: plan.plan_id, plan_hash: plan.plan_hash, idempotency_key: "k" }));
      await h.engine.settle();
      const after = unwrap(await captureProjectView(h.engine, h.agent, h.world, view));
      expect(Buffer.compare(preview.png, after.png)).not.toBe(0);
    } finally {
      h.close();
    }
  });
});
