import { describe, expect, it } from "vitest";
import { setup, v } from "./InProcessMcp.js";

/**
 * What each tool does, as its annotations must say (MCP 2025-11-25: clients decide from them when
 * to ask the person first). `blocks`: may change the world's blocks (destructive: it overwrites what
 * is there); `state`: changes the project's records only; `gone`: removes a record for good.
 */
const DOES: Readonly<Record<string, "read" | "blocks" | "state" | "gone">> = {
  project_context: "read",
  material_search: "read",
  material_describe: "read",
  region_inspect: "read",
  region_surface: "read",
  region_changes: "read",
  build_prepare: "blocks", // with apply
  build_apply: "blocks",
  operation_status: "read",
  operation_cancel: "state",
  operation_undo_prepare: "blocks", // with apply
  operation_list: "read",
  part_define: "state",
  part_get: "read",
  part_diff: "read",
  part_rename: "state",
  part_delete: "gone",
  batch_undo: "blocks",
  camera_list: "read",
  camera_capture: "read",
  camera_save: "state",
  asset_list: "read",
  schematic_export: "state",
  schematic_import_prepare: "state",
  schematic_paste: "blocks",
  terrain_preview: "read",
  terrain_prepare: "state",
  terrain_apply: "blocks",
  terrain_brush_prepare: "state",
};

const BOX = { min: v(0, 0, 0), max: v(3, 3, 3) };

describe("tool annotations", () => {
  it("every tool has all four hints, true to what it does", async () => {
    const s = await setup();
    try {
      const tools = (await s.client.listTools()).tools;
      expect(tools.map((t) => t.name).sort()).toEqual(Object.keys(DOES).sort());
      for (const t of tools) {
        const a = t.annotations!;
        const does = DOES[t.name]!;
        expect(a, t.name).toMatchObject({ readOnlyHint: does === "read", openWorldHint: false });
        expect(typeof a.idempotentHint, t.name).toBe("boolean");
        if (does !== "read") expect(a.destructiveHint, t.name).toBe(does === "blocks" || does === "gone");
      }
    } finally {
      await s.close();
    }
  });

  it("the read-only tools write nothing: no block, no operation, called after a build", async () => {
    const s = await setup();
    try {
      const built = (
        await s.call("build_prepare", {
          recipe: { version: 1, operations: [{ type: "box", ...BOX, block: "minecraft:stone" }] },
          apply: { idempotency_key: "k", part_name: "cube" },
        })
      ).structuredContent as { operation: { operation_id: string; part: { part_id: string } } };
      const opId = built.operation.operation_id;
      const writes = s.world.compareAndSetCalls;
      const ops = async (): Promise<number> => ((await s.call("operation_list", {})).structuredContent as { operations: unknown[] }).operations.length;
      const before = await ops();
      const args: Record<string, Record<string, unknown>> = {
        project_context: {},
        material_search: { query: "stone" },
        material_describe: { id: "minecraft:stone" },
        region_inspect: BOX,
        region_surface: { min: { x: 0, z: 0 }, max: { x: 3, z: 3 } },
        region_changes: BOX,
        operation_status: { operation_id: opId },
        operation_list: {},
        part_get: { part_id: built.operation.part.part_id },
        part_diff: { part_id: built.operation.part.part_id },
        camera_list: {},
        camera_capture: { pose: { x: 1.5, y: 2, z: -8, yaw: 0, pitch: 10, width: 64, height: 36 } },
        asset_list: {},
        terrain_preview: {
          recipe: { version: 1, area: { min: { x: 0, z: 0 }, max: { x: 15, z: 15 } }, base: 2, features: [], palette: { surface: "minecraft:grass_block" } },
        },
      };
      const read = Object.entries(DOES)
        .filter(([, d]) => d === "read")
        .map(([n]) => n);
      expect(Object.keys(args).sort()).toEqual(read.sort());
      // A refusal of our arguments would prove nothing: every call must be answered.
      const refused: Record<string, unknown> = {};
      for (const name of read) {
        const e = s.error(await s.call(name, args[name]!));
        if (e !== null) refused[name] = e;
      }
      expect(refused).toEqual({});
      expect(s.world.compareAndSetCalls).toBe(writes);
      expect(await ops()).toBe(before);
    } finally {
      await s.close();
    }
  });
});
