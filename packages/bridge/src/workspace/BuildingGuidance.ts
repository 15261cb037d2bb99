/**
 * Shared building guidance: the MCP server instructions (and, later, the in-game agent's prompt).
 * States the workflow and the exact capability boundaries of this server.
 */
export const BUILDING_GUIDANCE = `mcb builds in a Minecraft Java world through checked, undoable plans.

Workflow
1. project_context first: area, limits, capabilities, recent operations, recovery state, change_cursor. Reuse it; operation_list pages through every operation (filter by kind, status or part).
2. Materials: material_search a focused family (e.g. "spruce stairs"), then material_describe 1–3 chosen ids; reuse the answers while catalog_version is unchanged. Omitted properties take the game defaults; "stone" means "minecraft:stone".
3. Look before you build: region_surface for the ground over a wide area (top block and height per column; it says plainly when an area is empty), region_inspect for a box (summary first; detail "blocks" gives every position of ≤ 4096 as palette runs), camera_capture for a real rendered view, region_changes(since_cursor) for what changed since you last looked.
4. build_prepare a recipe {version: 1, operations: [box|line|cylinder|repeat ...]}; read changed_blocks, region and warnings. changed_blocks 0 means the world already holds it: nothing to apply. For edits based on an earlier block read, pass expected_blocks covering every desired position once, with snapshot_id copied unchanged.
5. build_apply(plan_id, plan_hash, idempotency_key). Keep the key for that logical call: after a timeout, check operation_status and repeat with the same key; never invent a new key for the same write. A plan is applied once.
6. Verify with region_inspect and camera_capture(after_operation_id). Undo with operation_undo_prepare + build_apply: it restores only blocks still as we left them; changed blocks are reported, never overwritten. A conflict with changed_since_prepare: true is a block someone changed and changed back since you prepared: prepare again from the world as it is.

People's edits (the person builds too)
- Every build_prepare merges three ways: what we built there before, what is there now, your new design. A block a person changed by hand is kept when your design there is unchanged (manual_edits.kept in the answer: say so briefly). Where your design differs, the plan is refused: error conflict, details.reason "manual_edits", with the exact count, boxes and a sample (expected = ours, actual = theirs, new = yours). Nothing was written.
- Then ask the person, naming the positions: keep their blocks (prepare again with on_manual_edit: "keep"), change your design around them, or, only if they say so, replace exactly those positions (replace: [...]). Never replace without their answer.
- Before rebuilding a part, part_diff(part_id) shows what people changed in it. region_changes lists their edits as source "external".
- Parts: undoing an operation takes its blocks out of its part (an emptied part is retired and its name is free); part_rename and part_delete tidy up (deleting keeps the blocks).

Design
- Deliberate silhouettes: a clear base, body and roof line; vary depth with stairs, slabs and walls rather than flat boxes.
- Calm walking areas: keep paths and floors level and two blocks of headroom; doors need both halves (lower and upper) in the same plan.
- Organic foundations: blend builds into terrain; use terrain_brush_prepare (raise/lower/flatten/smooth with soft edges, preserve columns) rather than cubes of dirt.
- Slope-aware materials: grass on gentle ground, stone or gravel on steep faces, sand or gravel on dry basin floors; keep mountain detail local.
- Connections are automatic: fences, panes, bars, walls and stairs in a recipe join their neighbours at preparation (walls get posts and tall sides under blocks, stairs form inner and outer corners), and existing ones next to the build join it back, as the game does on placement. Give only facing and half; set the recipe's "connections": "pinned" to keep every state exactly as written. Warnings name lone posts and neighbours left unconnected.
- Preserve what exists: replace filters and part masks (part_define, then build_prepare with part_id) keep edits inside their intended blocks. Manual edits by players are never overwritten (see above).

Boundaries (exact)
- Recipes are JSON data, never code. This server accepts box, line, cylinder, arch, replace, repeat (nested) and transform; palettes are seeded and deterministic.
- Terrain recipes (terrain_preview → terrain_prepare per tile) offer hills, ridges, plateaus, dry basins/channels, terraces, amplitude/scale value noise and a limited palette (surface, subsurface, stone, steep, peak, low). They change only natural blocks (air, soil, stone, sand, snow, small plants); water and builds stay. Previews are not world-verified.
- Brushes scan a window of at most 80 levels and 24 blocks radius; columns under water or under non-natural blocks are skipped.
- Schematics: Sponge v1/v2/v3, Litematica and structure files in the local library (asset_list, schematic_export, schematic_import_prepare with rotation 0/90/180/270). Block entities (chests, signs) keep their data. Entities and biomes are never silently dropped: the import is refused with a loss report until you pass drop: ["entities", "biomes"]. Over 100,000 positions, prepare and apply tile_index 0, 1, … in order, then part_define with all their operation_ids. Import is a normal checked plan; air in a schematic clears blocks.
- Captures come from an embedded software renderer reading the authoritative blocks: flat colours per block, face shading, no textures or entities.
- Fluids, gravity, plant growth and redstone may change the world after a write; undo covers the recorded writes only.`;
