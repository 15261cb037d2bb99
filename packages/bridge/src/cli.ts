#!/usr/bin/env node
import { mkdirSync } from "node:fs";
import { parseArgs } from "node:util";
import type { Result } from "@mcb/blocks";
import type { OperationStatusView } from "@mcb/engine";
import { DEFAULT_STATE_DIR, openEmbeddedWorld, type EmbeddedWorld } from "./EmbeddedWorld.js";
import { CameraStore } from "./mcp/CameraStore.js";
import { runMcpServer } from "./McpCommand.js";
import { compileRecipeFile, formatSummary } from "./RecipeCommand.js";
import { buildSchematicFile, exportSchematic, importSchematic, schematicFileInfo } from "./SchematicCommands.js";
import { captureToFile } from "./CameraCommands.js";
import type { CameraPose } from "@mcb/render";
import { previewTerrainFile, progressBar, runTerrainBatch } from "./TerrainCommands.js";
import { buildRecipeFile, formatOperation, inspectRegion, undoOperation } from "./WorldCommands.js";

const USAGE = `usage:
  mcb recipe compile <recipe.json> [--json] [--mc-version <version>]
  mcb build <recipe.json>            prepare, apply and wait, on the embedded world
  mcb undo <operation_id>            checked undo of one operation
  mcb status                         project context: recent operations, recovery
  mcb inspect [options] -- x1 y1 z1 x2 y2 z2   palette summary (≤ 4096 positions)
  mcb recovery review <operation_id>
  mcb recovery abandon <operation_id> <digest>
  mcb mcp                            MCP server over stdio (22 tools) on the embedded world
  mcb schem build <recipe.json> -o <out.schem> [--origin x,y,z] [--max-positions N]
  mcb schem info <file.schem> [--max-positions N]
  mcb schem export <name> [-o <out.schem>] [--origin x,y,z] -- x1 y1 z1 x2 y2 z2
                                     a region of the embedded world into its library (and a file)
  mcb schem import <asset_id | file.schem> --at x,y,z [--rotation 0|90|180|270]
                                     paste: prepare, apply and wait, like mcb build
  mcb terrain preview <terrain.json> -o <out.png> [--resolution N]
  mcb terrain batch <terrain.json> [--max-tiles N]   apply every tile, resumable
  mcb camera save <name> -- x y z yaw pitch [fov]   a viewpoint for camera_list/capture
  mcb camera list
  mcb camera capture (<name> | -- x y z yaw pitch [fov]) -o <out.png> [--width W] [--height H] [--view-distance N]
options: --state <dir> (embedded world directory, default ${DEFAULT_STATE_DIR}), --json

Exit status: 0 success, 1 structured error (JSON on stderr), 2 usage error,
3 an operation that ended other than "applied" (conflict, cancelled, failed).`;

type Out = { json: boolean };

function emit<T>(r: Result<T>, o: Out, text: (v: T) => string): number {
  if (!r.ok) {
    process.stderr.write(`${JSON.stringify({ error: r.error })}\n`);
    return 1;
  }
  process.stdout.write(o.json ? `${JSON.stringify(r.value)}\n` : `${text(r.value)}\n`);
  return 0;
}

async function withWorld(state: string, run: (w: EmbeddedWorld) => Promise<number>): Promise<number> {
  const opened = await openEmbeddedWorld(state);
  if (!opened.ok) return emit(opened, { json: true }, () => "");
  const w = opened.value;
  try {
    return await run(w);
  } finally {
    await w.close();
  }
}

async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        json: { type: "boolean" },
        "mc-version": { type: "string" },
        state: { type: "string" },
        output: { type: "string", short: "o" },
        origin: { type: "string" },
        "max-positions": { type: "string" },
        resolution: { type: "string" },
        "max-tiles": { type: "string" },
        at: { type: "string" },
        rotation: { type: "string" },
        width: { type: "string" },
        height: { type: "string" },
        "view-distance": { type: "string" },
        help: { type: "boolean", short: "h" },
      },
    });
  } catch (e) {
    process.stderr.write(`${(e as Error).message}\n${USAGE}\n`);
    return 2;
  }
  if (parsed.values.help === true) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const o: Out = { json: parsed.values.json === true };
  const state = parsed.values.state ?? DEFAULT_STATE_DIR;
  const [command, ...args] = parsed.positionals;
  const usage = (): number => {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  };
  const operationExit = (op: OperationStatusView | null): number => (op === null || op.status === "applied" ? 0 : 3);
  const operationText = (op: OperationStatusView | null): string => (op === null ? "nothing to write: the world already holds this plan (no operation)" : formatOperation(op));

  switch (command) {
    case "recipe": {
      if (args[0] !== "compile" || args.length !== 2) return usage();
      const v = parsed.values["mc-version"];
      return emit(await compileRecipeFile(args[1]!, v === undefined ? {} : { minecraftVersion: v }), o, formatSummary);
    }
    case "build":
      if (args.length !== 1) return usage();
      return withWorld(state, async (w) => {
        const r = await buildRecipeFile(w, args[0]!);
        const code = emit(r, o, (v) => `plan ${v.plan.plan_id} (${v.plan.changed_blocks} changes, ${v.plan.unchanged_blocks} already in place)\n${operationText(v.operation)}`);
        return r.ok ? operationExit(r.value.operation) : code;
      });
    case "undo":
      if (args.length !== 1) return usage();
      return withWorld(state, async (w) => {
        const r = await undoOperation(w, args[0]!);
        const code = emit(r, o, (v) => `undo plan ${v.plan.plan_id}: ${v.plan.changed_blocks} blocks to restore, ${v.conflicts} left as they are (changed since)\n${operationText(v.operation)}`);
        return r.ok ? operationExit(r.value.operation) : code;
      });
    case "status":
      if (args.length !== 0) return usage();
      return withWorld(state, async (w) =>
        emit(await w.engine.projectContext(w.ctx), o, (c) =>
          [
            `world ${c.world.id} epoch ${c.world.epoch} (${c.world.minecraft_version}), project ${c.project_id}`,
            ...c.recent_operations.map((op) => `  ${op.operation_id} ${op.kind} ${op.status} ${op.written}/${op.total}`),
            c.recovery_required.length > 0 ? `recovery required: ${c.recovery_required.join(", ")} (mcb recovery review <id>)` : "no recovery pending",
          ].join("\n"),
        ),
      );
    case "inspect":
      return withWorld(state, async (w) =>
        emit(await inspectRegion(w, args), o, (v) => [`${v.positions} positions`, ...v.palette.map((p) => `  ${String(p.count).padStart(5)} ${p.state}`)].join("\n")),
      );
    case "recovery": {
      const [action, id, digest] = args;
      if (action === "review" && id !== undefined && args.length === 2)
        return withWorld(state, async (w) => emit(await w.engine.recoveryReview(w.admin, { operation_id: id }), o, (r) => JSON.stringify(r, null, 2)));
      if (action === "abandon" && id !== undefined && digest !== undefined && args.length === 3)
        return withWorld(state, async (w) => emit(await w.engine.recoveryAbandon(w.admin, { operation_id: id, expected_digest: digest }), o, formatOperation));
      return usage();
    }
    case "mcp":
      if (args.length !== 0) return usage();
    {
      const r = await runMcpServer(state); // stdout belongs to the protocol: errors go to stderr only
      if (r.ok) return 0;
      process.stderr.write(`${JSON.stringify({ error: r.error })}\n`);
      return 1;
    }
    case "schem": {
      const [action, file] = args;
      const max = intOption(parsed.values["max-positions"]);
      if (max === null) return usage();
      if (action === "build" && file !== undefined && args.length === 2 && parsed.values.output !== undefined) {
        const origin = parsed.values.origin?.split(",").map(Number);
        if (origin !== undefined && (origin.length !== 3 || !origin.every(Number.isSafeInteger))) return usage();
        const r = await buildSchematicFile(file, parsed.values.output, {
          ...(origin ? { origin: { x: origin[0]!, y: origin[1]!, z: origin[2]! } } : {}),
          ...(max !== undefined ? { maxPositions: max } : {}),
        });
        return emit(r, o, (v) => `wrote ${parsed.values.output}: ${v.width}×${v.height}×${v.length}, ${v.block_count} blocks, ${v.bytes} bytes, sha256 ${v.sha256}`);
      }
      if (action === "export" && file !== undefined && args.length === 8) {
        const c = args.slice(2).map(Number);
        const origin = vec(parsed.values.origin);
        if (!c.every(Number.isSafeInteger) || origin === null) return usage();
        const [x1, y1, z1, x2, y2, z2] = c as [number, number, number, number, number, number];
        return withWorld(state, async (w) =>
          emit(await exportSchematic(w, file, { x: x1, y: y1, z: z1 }, { x: x2, y: y2, z: z2 }, origin, parsed.values.output), o, (v) =>
            `saved asset ${v.asset_id}: ${v.width}×${v.height}×${v.length}, ${v.block_count} blocks, ${v.bytes} bytes, sha256 ${v.sha256}${parsed.values.output === undefined ? "" : `; wrote ${parsed.values.output}`}`,
          ),
        );
      }
      if (action === "import" && file !== undefined && args.length === 2) {
        const at = vec(parsed.values.at);
        const rotation = Number(parsed.values.rotation ?? 0);
        if (at === null || at === undefined || ![0, 90, 180, 270].includes(rotation)) return usage();
        return withWorld(state, async (w) => {
          const r = await importSchematic(w, file, at, rotation as 0 | 90 | 180 | 270);
          const code = emit(r, o, (v) => `paste plan ${v.plan.plan_id} (${v.plan.changed_blocks} changes, ${v.plan.unchanged_blocks} already in place)\n${operationText(v.operation)}`);
          return r.ok ? operationExit(r.value.operation) : code;
        });
      }
      if (action === "info" && file !== undefined && args.length === 2)
        return emit(await schematicFileInfo(file, max), o, (v) =>
          [
            `${v.name}: ${v.width}×${v.height}×${v.length} (${v.block_count} non-air), DataVersion ${v.data_version}, offset ${v.offset.x} ${v.offset.y} ${v.offset.z}`,
            `${v.bytes} bytes, sha256 ${v.sha256}`,
            ...v.palette.map((p) => `  ${String(p.count).padStart(6)} ${p.state}`),
          ].join("\n"),
        );
      return usage();
    }
    case "terrain": {
      const [action, file] = args;
      if (action === "preview" && file !== undefined && args.length === 2 && parsed.values.output !== undefined) {
        const res = intOption(parsed.values.resolution);
        if (res === null) return usage();
        return emit(await previewTerrainFile(file, parsed.values.output, res), o, (v) =>
          `${v.terrain_id}: ${v.width}×${v.length} columns, heights ${v.stats.min}..${v.stats.max} (mean ${v.stats.mean}), ${v.tiles.count} tiles of ${v.tiles.size}×${v.tiles.size}, y ${v.floor}..${v.ceiling}\nwrote ${v.output}`,
        );
      }
      if (action === "batch" && file !== undefined && args.length === 2) {
        const maxTiles = intOption(parsed.values["max-tiles"]);
        if (maxTiles === null) return usage();
        return withWorld(state, async (w) => {
          const r = await runTerrainBatch(w, file, progressBar(process.stderr), maxTiles ?? Infinity);
          const code = emit(r, o, (v) => `${v.terrain_id}: ${v.applied} tiles applied, ${v.empty} unchanged, ${v.unfinished} unfinished; ${v.written_blocks} blocks written (progress in ${v.progress_file})`);
          return r.ok && r.value.unfinished > 0 ? 3 : code;
        });
      }
      return usage();
    }
    case "camera": {
      const [action, name, ...nums] = args;
      const store = new CameraStore(state);
      if (action === "list" && args.length === 1) return emit({ ok: true, value: store.list() }, o, (cs) => cs.map((c) => `${c.camera_id}: ${JSON.stringify(c.pose)}`).join("\n") || "(no cameras)");
      if (action === "capture" && parsed.values.output !== undefined) {
        const sizes = [intOption(parsed.values.width), intOption(parsed.values.height), intOption(parsed.values["view-distance"])];
        if (sizes.includes(null)) return usage();
        const [width, height, viewDistance] = sizes as (number | undefined)[];
        let view: { camera: string } | { pose: CameraPose };
        if (name !== undefined && nums.length === 0 && !/^-?[\d.]+$/.test(name)) view = { camera: name };
        else {
          const v = args.slice(1).map(Number);
          if ((v.length !== 5 && v.length !== 6) || !v.every(Number.isFinite)) return usage();
          const [x, y, z, yaw, pitch, fov] = v as [number, number, number, number, number, number | undefined];
          view = { pose: { x, y, z, yaw, pitch, ...(fov !== undefined ? { fov } : {}), ...(width !== undefined ? { width } : {}), ...(height !== undefined ? { height } : {}) } };
        }
        if ("camera" in view && (width !== undefined || height !== undefined)) return usage();
        const out = parsed.values.output;
        return withWorld(state, async (w) =>
          emit(await captureToFile(w, view, out, viewDistance), o, (c) => `wrote ${c.output}: ${c.width}×${c.height}, ${c.bytes} bytes, ${Math.round(c.hit_fraction * 100)}% of pixels show blocks${c.inside_block ? " (the eye is inside a block)" : ""}`),
        );
      }
      if (action === "save" && name !== undefined && (nums.length === 5 || nums.length === 6)) {
        const v = nums.map(Number);
        if (!v.every(Number.isFinite)) return usage();
        const [x, y, z, yaw, pitch, fov] = v as [number, number, number, number, number, number | undefined];
        mkdirSync(state, { recursive: true });
        return emit(store.save(name, { x, y, z, yaw, pitch, ...(fov !== undefined ? { fov } : {}) }), o, (c) => `saved camera ${c.camera_id}`);
      }
      return usage();
    }
    default:
      return usage();
  }
}

/** undefined when absent, null when not "x,y,z" integers. */
function vec(v: string | undefined): { x: number; y: number; z: number } | undefined | null {
  if (v === undefined) return undefined;
  const n = v.split(",").map(Number);
  return n.length === 3 && n.every(Number.isSafeInteger) ? { x: n[0]!, y: n[1]!, z: n[2]! } : null;
}

/** undefined when absent, null when not a positive integer. */
function intOption(v: string | undefined): number | undefined | null {
  if (v === undefined) return undefined;
  const n = Number(v);
  return Number.isSafeInteger(n) && n > 0 ? n : null;
}

process.exitCode = await main(process.argv.slice(2));
