import { describe, expect, it } from "vitest";
import { setup, v } from "./InProcessMcp.js";

describe("MCP tools keep the project's boundaries (server side)", () => {
  it("writes, exports, terrain and brushes outside the area are refused; camera reads stop at the area", async () => {
    const s = await setup();
    expect(
      s.error(
        await s.call("build_prepare", {
          recipe: { version: 1, operations: [{ type: "box", min: v(30, 64, 30), max: v(40, 64, 30), block: "minecraft:stone" }] },
        }),
      ),
    ).toMatchObject({ code: "out_of_bounds" });
    expect(s.error(await s.call("schematic_export", { name: "x", min: v(30, 64, 30), max: v(33, 64, 30) }))).toMatchObject({ code: "out_of_bounds" });
    const preview = await s.call("terrain_preview", { recipe: { version: 1, area: { min: { x: 20, z: 20 }, max: { x: 40, z: 40 } }, base: 64, features: [] } });
    const id = (preview.structuredContent as { terrain_id: string }).terrain_id;
    expect(s.error(await s.call("terrain_prepare", { terrain_id: id, tile_index: 0 }))).toMatchObject({ code: "out_of_bounds" });
    expect(
      s.error(
        await s.call("terrain_brush_prepare", { brush: { action: "raise", amount: 2, center: { x: 31, z: 31 }, radius: 3, y_range: { min: 60, max: 70 } } }),
      ),
    ).toMatchObject({ code: "out_of_bounds" });
    // A block just outside the area is not read, so the camera does not show it.
    s.world.externalEdit(40, 65, 10, "minecraft:gold_block");
    const outside = await s.call("camera_capture", { pose: { x: 35.5, y: 64, z: 10.5, yaw: -90, pitch: 0, width: 64, height: 36 } });
    expect(outside.structuredContent).toMatchObject({ hit_fraction: 0 });
    s.world.externalEdit(20, 65, 10, "minecraft:gold_block");
    const inside = await s.call("camera_capture", { pose: { x: 15.5, y: 64, z: 10.5, yaw: -90, pitch: 0, width: 64, height: 36 } });
    expect((inside.structuredContent as { hit_fraction: number }).hit_fraction).toBeGreaterThan(0);
    await s.close();
  });

  it("a revoked player gets permission_denied from every tool that touches the project", async () => {
    const s = await setup();
    s.engine.setAccess("p", "alice", false);
    for (const [name, args] of [
      ["project_context", {}],
      ["region_inspect", { min: v(0, 64, 0), max: v(1, 64, 1), detail: "summary" }],
      ["build_prepare", { recipe: { version: 1, operations: [{ type: "box", min: v(0, 64, 0), max: v(0, 64, 0), block: "minecraft:stone" }] } }],
      ["schematic_export", { name: "x", min: v(0, 64, 0), max: v(1, 64, 1) }],
      ["terrain_brush_prepare", { brush: { action: "raise", amount: 2, center: { x: 5, z: 5 }, radius: 2, y_range: { min: 60, max: 70 } } }],
      ["camera_capture", { pose: { x: 5, y: 64, z: 5, yaw: 0, pitch: 0, width: 16, height: 16 } }],
      ["camera_list", {}],
      ["asset_list", {}],
      ["material_search", { query: "oak" }],
      ["terrain_preview", { recipe: { version: 1, area: { min: { x: 0, z: 0 }, max: { x: 3, z: 3 } }, base: 64, features: [] } }],
    ] as const)
      expect(s.error(await s.call(name, args as Record<string, unknown>))).toMatchObject({ code: "permission_denied" });
    s.engine.setAccess("p", "alice", true);
    expect(s.error(await s.call("camera_list", {}))).toBeNull();
    await s.close();
  });
});
