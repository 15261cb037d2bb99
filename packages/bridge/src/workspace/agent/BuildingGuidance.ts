/**
 * Shared building guidance: the MCP server instructions (and the in-game agent's prompt). States
 * the workflow, the terms the tool schemas use without repeating them, and the exact boundaries.
 */
export const BUILDING_GUIDANCE = `mcb builds in a Minecraft Java world through checked, undoable plans.

Terms (the tool schemas use them without repeating them)
- position: {x, y, z} integers; x east (+) / west (−), y height, z south (+) / north (−). column: {x, z}. Boxes are inclusive: min..max.
- block: a state string "minecraft:id[property=value,…]" ("stone" means "minecraft:stone"; omitted properties take the game defaults), or {"palette": name} in a recipe.
- pose: a camera, {x, y, z} its feet (numbers) with yaw (0 south, 90 west) and pitch (+90 down, −90 up), or look_at a position; fov 30–110 (default 70); width ≤ 1920 and height ≤ 1080 (default 640×360).
- Unknown ids are refused with up to three suggestions ("did you mean").

Workflow
1. project_context first (area, limits, parts, recent operations, change_cursor); reuse it.
2. Materials: material_search one family ("spruce stairs"), material_describe 1–3 ids: it says what facing, half, axis and shape mean for that block.
3. Look: region_surface (top block and height per column), region_inspect (a box ≤ 4096 positions), camera_capture, region_changes(since_cursor).
4. Build one part per call: build_prepare {recipe, apply: {idempotency_key, part_name}} checks, applies and names the part. Without apply it only prepares: read changed_blocks, region and warnings, then build_apply(plan_id, plan_hash, idempotency_key, part_name?). Keep a key for its logical call: after a timeout repeat with the same key, never a new one. changed_blocks 0: already built. part_name of an existing part grows it (walls one floor taller: the same name). Blocks of another part (windows into walls): add take_over: [that part]; undo gives them back. Over 100,000 blocks (up to 20,000,000) with apply, it runs in tiles as one background job (plan_id is its build_id): the same call again gives its progress.
5. Look before writing when unsure: build_prepare (or schematic_import_prepare) {..., preview: {side}} returns the plan drawn as if applied, nothing written (placed blocks tinted green, changed amber, removed as red glass; overlay: "none" for the plain picture); camera_capture {plan_id, pose or frame} shows any prepared plan, an undo's too. Then build_apply, or prepare again. A large plan may be put to the person first; permission_denied (declined): ask what to change.
6. Verify with camera_capture {frame: {part_id, side}} (north|south|east|west|top|iso; views: up to 4 sides tiled in one image; the image is shaped to the part) or {pose: {x, y, z, look_at}}; camera_save keeps a view by name.
7. Undo: operation_undo_prepare {operation_id, apply: {idempotency_key}} restores only blocks still as we left them; others are reported, never overwritten. A whole paste, terrain job or big build: batch_undo {batch_id}.

Recipes {version: 1, palettes?, operations: [...], connections?}: later operations win.
- box(min, max, block, hollow?: true | "walls", exclude?: [{min, max}]): true keeps the six faces; "walls" the four sides (no floor or ceiling); exclude leaves openings (doors, windows) unwritten.
- line, cylinder (exclude?), arch, replace(from: ids to replace, exclude?), repeat(count, offset), transform(rotate, mirror, anchor, translate; states turn too).
- blocks([{x, y, z, block}], ≤ 4096, each position once): single blocks such as window panes, lanterns, doors.
- roof(min, max columns of the walls' outline, y = wall top + 1, style gable|hip|flat, stairs, slab, axis?, pitch 1|2, overhang 0–2, gable_block?): stairs face up-slope with outer corners at hips, slabs cap the ridge, eaves step down over the overhang.
- Connections are automatic: fences, panes, bars, walls and stairs join their neighbours (stairs form corners); "connections": "pinned" keeps states as written.
- Warnings name positions: a block with nothing to hold it (torch, lantern, ladder, door, plant), a door, bed or tall plant missing its other half, sand over air.

People's edits (the person builds too)
- Every prepare merges three ways: what we built, what is there now, your design. A block a person changed is kept where your design is unchanged (manual_edits.kept: say so). Where it differs the plan is refused (conflict, reason manual_edits, with positions). Ask the person: keep theirs (on_manual_edit: "keep"), change the design, or, only if they say so, replace those positions.
- part_diff(part_id) shows what people changed in a part before you rebuild it; region_changes lists their edits as source "external".

Toolsets: terrain (terrain_preview, terrain_prepare, terrain_apply, terrain_brush_prepare) and schematic (asset_list, schematic_export, schematic_import_prepare, schematic_paste) are listed after toolsets_enable.
- Terrain: terrain_preview gives a terrain_id (kept in the state); terrain_apply {terrain_id, part_name} applies every tile in the background (call again for progress; it resumes). Terrain changes natural blocks only; builds and water stay. Brushes reshape the live surface (≤ 24 radius, ≤ 80 levels).
- Schematics: Sponge v1–v3, Litematica, structure files in the local library; a paste is a checked plan; air in it clears blocks; entities and biomes are refused until named in drop; schematic_paste pastes any size in one call (over 100,000 positions, schematic_import_prepare takes tile_index 0, 1, … in order).

Design: a clear base, body and roof line; depth from stairs, slabs and walls rather than flat boxes; level floors with two blocks of headroom; blend foundations into terrain; keep what exists (replace filters, part_id masks).

Boundaries: recipes are JSON data, never code. Captures come from a software renderer over the real blocks (simple textures and block shapes, no entities or lighting). Fluids, gravity, growth and redstone may change the world after a write; undo covers recorded writes only. Operation kinds: build, undo, terrain, import, brush.`;
