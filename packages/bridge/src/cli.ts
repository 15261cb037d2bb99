#!/usr/bin/env node
import { mkdirSync } from "node:fs";
import { parseArgs } from "node:util";
import type { Result } from "@mcb/blocks";
import type { OperationStatusView } from "@mcb/engine";
import { emit, intOption, vec, withWorld, type Out } from "./CliSupport.js";
import { DEFAULT_STATE_DIR, worldTargetOf, type WorldLocation } from "./EmbeddedWorld.js";
import { CameraStore } from "./mcp/CameraStore.js";
import { runMcpServer } from "./McpCommand.js";
import { runChat } from "./chat/ChatCommand.js";
import { doctorReport } from "./chat/Doctor.js";
import { attachToChat } from "./chat/McpAttach.js";
import { compileRecipeFile, formatSummary } from "./RecipeCommand.js";
import { SCHEM_OPTIONS, SCHEM_USAGE, limitsFromFlags, runSchemCommand } from "./SchemCli.js";
import { captureToFile } from "./CameraCommands.js";
import type { CameraPose } from "@mcb/render";
import { previewTerrainFile, progressBar, runTerrainBatch } from "./TerrainCommands.js";
import { buildRecipeFile, formatManualEdits, formatOperation, inspectRegion, undoOperation, type EditResolution } from "./WorldCommands.js";
import { EDIT_USAGE, runEditCommand } from "./EditCli.js";
import { PART_USAGE, runPartCommand } from "./PartCli.js";

const USAGE = `usage:
  mcb recipe compile <recipe.json> [--json] [--mc-version <version>]
  mcb build <recipe.json> [--on-manual-edit keep] [--replace x,y,z]... [--max-rate N]
                                     prepare, apply and wait; blocks a person changed by hand are
                                     kept where the design there is unchanged, else the build is
                                     refused naming them (keep them, or replace named ones)
  mcb undo <operation_id>            checked undo of one operation
${EDIT_USAGE}
${PART_USAGE}
  mcb status                         project context: recent operations, recovery
  mcb inspect [options] -- x1 y1 z1 x2 y2 z2   palette summary (≤ 4096 positions)
  mcb recovery review <operation_id>
  mcb recovery abandon <operation_id> <digest>
  mcb mcp [read limits] [--max-rate N]   MCP server over stdio (25 tools) on the embedded world
  mcb mcp --attach                   MCP for an agent of mcb chat (MCB_CHAT_MCP/_TOKEN from the chat)
  mcb chat --console [--max-rate N]  in-game /ai bridge over ACP; --console: stdin lines are the
                                     local player's /ai messages (with --world: players in game)
  mcb doctor                         configuration and what is missing, as JSON
${SCHEM_USAGE}
  mcb terrain preview <terrain.json> -o <out.png> [--resolution N]
  mcb terrain batch <terrain.json> [--max-tiles N] [--on-manual-edit keep] [--max-rate N]
                                     apply every tile, resumable
  mcb camera save <name> -- x y z yaw pitch [fov]   a viewpoint for camera_list/capture
  mcb camera list
  mcb camera capture (<name> | -- x y z yaw pitch [fov]) -o <out.png> [--width W] [--height H] [--view-distance N]
options: --state <dir> (embedded world and journal directory, default ${DEFAULT_STATE_DIR}), --json,
  --max-rate N (commands that write: at most N blocks per second, e.g. to spare a busy server),
  --world port://127.0.0.1:PORT (a running server's world port instead of the embedded world;
  its token from the MCB_PORT_TOKEN environment variable; give each server its own --state)

Exit status: 0 success, 1 structured error (JSON on stderr), 2 usage error,
3 an operation that ended other than "applied" (conflict, cancelled, failed),
130 / 143 interrupted by Ctrl-C / SIGTERM: the running operation stopped after its current slice
(cancelled, exact counts, undoable); build, undo, schem import and terrain batch.`;

/** Negative numbers are values, not options: `mcb edit -3 64 0 stone` needs no "--". */
const NEGATIVE = /^-\d+(\.\d+)?$/;
const MARK = "\u0001";

async function main(rawArgv: string[]): Promise<number> {
  const argv = rawArgv.map((a) => (NEGATIVE.test(a) ? MARK + a : a));
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        json: { type: "boolean" },
        "mc-version": { type: "string" },
        state: { type: "string" },
        world: { type: "string" },
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
        attach: { type: "boolean" },
        console: { type: "boolean" },
        "max-rate": { type: "string" },
        "max-area": { type: "string" },
        "on-manual-edit": { type: "string" },
        replace: { type: "string", multiple: true },
        fill: { type: "boolean" },
        ...SCHEM_OPTIONS,
      },
    });
  } catch (e) {
    process.stderr.write(`${(e as Error).message}\n${USAGE}\n`);
    return 2;
  }
  const unmark = (v: string): string => (v.startsWith(MARK) ? v.slice(1) : v);
  parsed.positionals = parsed.positionals.map(unmark);
  for (const [k, v] of Object.entries(parsed.values)) if (typeof v === "string") (parsed.values as Record<string, unknown>)[k] = unmark(v);
  const policy = parsed.values["on-manual-edit"];
  if (policy !== undefined && policy !== "keep" && policy !== "refuse") {
    process.stderr.write(`--on-manual-edit is keep or refuse\n${USAGE}\n`);
    return 2;
  }
  const replace = (parsed.values.replace ?? []).map((r) => vec(unmark(r)));
  if (replace.some((r) => r === null || r === undefined)) {
    process.stderr.write(`--replace takes a position x,y,z\n${USAGE}\n`);
    return 2;
  }
  const resolution: EditResolution = { ...(policy === undefined ? {} : { on_manual_edit: policy }), ...(replace.length === 0 ? {} : { replace: replace as { x: number; y: number; z: number }[] }) };
  const maxRate = intOption(parsed.values["max-rate"]);
  if (maxRate === null) {
    process.stderr.write(`--max-rate takes a positive number of blocks per second\n${USAGE}\n`);
    return 2;
  }
  if (parsed.values.help === true) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const o: Out = { json: parsed.values.json === true };
  const state: WorldLocation = { dir: parsed.values.state ?? DEFAULT_STATE_DIR, target: worldTargetOf(parsed.values.world) };
  const [command, ...args] = parsed.positionals;
  const usage = (): number => {
    process.stderr.write(`${USAGE}\n`);
    return 2;
  };
  const operationExit = (op: OperationStatusView | null): number => (op === null || op.status === "applied" ? 0 : 3);
  const operationText = (op: OperationStatusView | null): string => (op === null ? "nothing to write (no operation)" : formatOperation(op));

  switch (command) {
    case "recipe": {
      if (args[0] !== "compile" || args.length !== 2) return usage();
      const v = parsed.values["mc-version"];
      return emit(await compileRecipeFile(args[1]!, v === undefined ? {} : { minecraftVersion: v }), o, formatSummary);
    }
    case "build":
      if (args.length !== 1) return usage();
      return withWorld(
        state,
        async (w) => {
          const r = await buildRecipeFile(w, args[0]!, resolution);
          const code = emit(r, o, (v) => [`plan ${v.plan.plan_id} (${v.plan.changed_blocks} changes, ${v.plan.unchanged_blocks} already in place)`, ...formatManualEdits(v.plan), operationText(v.operation)].join("\n"));
          return r.ok ? operationExit(r.value.operation) : code;
        },
        { writes: true, limits: maxRate === undefined ? {} : { maxBlocksPerSecond: maxRate } },
      );
    case "undo":
      if (args.length !== 1) return usage();
      return withWorld(
        state,
        async (w) => {
          const r = await undoOperation(w, args[0]!);
          const code = emit(r, o, (v) =>
            `undo plan ${v.plan.plan_id}: ${v.plan.changed_blocks} blocks to restore, ${v.conflicts} left as they are (changed since)${v.uncertain > 0 ? `, ${v.uncertain} of an unfinished slice left as they are (uncertain)` : ""}\n${operationText(v.operation)}`,
          );
          return r.ok ? operationExit(r.value.operation) : code;
        },
        { writes: true },
      );
    case "edit":
      return runEditCommand(args, parsed.values.fill === true, state, o);
    case "part":
      return runPartCommand(args, state, o);
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
      if (parsed.values.attach === true) {
        const r = await attachToChat();
        if (r.ok) return 0;
        process.stderr.write(`${JSON.stringify({ error: r.error })}\n`);
        return 1;
      }
    {
      const policy = limitsFromFlags(parsed.values);
      if (!policy.ok) return emit(policy, { json: true }, () => "");
      const r = await runMcpServer(state, policy.value, maxRate === undefined ? {} : { maxBlocksPerSecond: maxRate }); // stdout belongs to the protocol: errors go to stderr only
      if (r.ok) return 0;
      process.stderr.write(`${JSON.stringify({ error: r.error })}\n`);
      return 1;
    }
    case "chat": {
      const maxRate = intOption(parsed.values["max-rate"]);
      const maxArea = intOption(parsed.values["max-area"]);
      if (args.length !== 0 || maxRate === null || maxArea === null) return usage();
      const r = await runChat(state, { console: parsed.values.console === true, ...(maxRate === undefined ? {} : { maxRate }), ...(maxArea === undefined ? {} : { maxAreaSide: maxArea }) });
      return r.ok ? 0 : emit(r, { json: true }, () => "");
    }
    case "doctor": {
      if (args.length !== 0) return usage();
      const report = await doctorReport(state);
      process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
      return report.ok === true ? 0 : 1;
    }
    case "schem":
      return runSchemCommand(args, parsed.values, state, o);
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
        return withWorld(
          state,
          async (w) => {
            const r = await runTerrainBatch(w, file, progressBar(process.stderr), maxTiles ?? Infinity, resolution.on_manual_edit);
            const code = emit(r, o, (v) => `${v.terrain_id}: ${v.applied} tiles applied, ${v.empty} unchanged, ${v.conflicts} left in conflict, ${v.unfinished} unfinished; ${v.written_blocks} blocks written (progress in ${v.progress_file})`);
            return r.ok && r.value.unfinished > 0 ? 3 : code;
          },
          { writes: true, limits: maxRate === undefined ? {} : { maxBlocksPerSecond: maxRate } },
        );
      }
      return usage();
    }
    case "camera": {
      const [action, name, ...nums] = args;
      const store = new CameraStore(state.dir);
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
        mkdirSync(state.dir, { recursive: true });
        return emit(store.save(name, { x, y, z, yaw, pitch, ...(fov !== undefined ? { fov } : {}) }), o, (c) => `saved camera ${c.camera_id}`);
      }
      return usage();
    }
    default:
      return usage();
  }
}

process.exitCode = await main(process.argv.slice(2));
