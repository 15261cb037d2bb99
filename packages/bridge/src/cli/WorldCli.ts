import type { Vec3 } from "@mcb/blocks";
import type { BuildPrepareInput, ProjectContextView } from "@mcb/engine";
import { buildRecipeFile, inspectRegion, undoOperation } from "../workspace/jobs/BuildJobs.js";
import { batchFile, undoBatch } from "../workspace/jobs/BatchUndo.js";
import { previewRecipeFile } from "../workspace/jobs/PreviewJobs.js";
import { previewLine, previewOptions } from "./PreviewCli.js";
import { intOption, vecOption, type Values } from "./Args.js";
import type { Command } from "./Command.js";
import { formatManualEdits, formatOperation, formatReview, operationExit, operationText, progressBar, reviewView } from "./Format.js";
import type { Invocation } from "./Invocation.js";
import { serverStats, serverStatsLine } from "../workspace/world/ServerStats.js";

/** --on-manual-edit and --replace, or the problem with them. */
function resolutionOf(v: Values): { ok: true; value: Pick<BuildPrepareInput, "on_manual_edit" | "replace"> } | { ok: false; problem: string } {
  const policy = v["on-manual-edit"];
  if (policy !== undefined && policy !== "keep" && policy !== "refuse") return { ok: false, problem: "--on-manual-edit is keep or refuse" };
  const replace: Vec3[] = [];
  for (const r of (v.replace as readonly string[] | undefined) ?? []) {
    const p = vecOption(r);
    if (p === null || p === undefined) return { ok: false, problem: `--replace takes a position x,y,z, not ${JSON.stringify(r)}` };
    replace.push(p);
  }
  return { ok: true, value: { ...(policy === undefined ? {} : { on_manual_edit: policy }), ...(replace.length === 0 ? {} : { replace }) } };
}

/** --max-rate as engine limits, or null (a usage error) when it is not a positive integer. */
export function rateLimits(c: Invocation): { maxBlocksPerSecond?: number } | null {
  const rate = intOption(c.values["max-rate"]);
  return rate === null ? null : rate === undefined ? {} : { maxBlocksPerSecond: rate };
}

export const buildCommand: Command = {
  name: "build",
  usage: `  mcb build <recipe.json> [--part <name> [--take-over <part>,...]] [--on-manual-edit keep] [--replace x,y,z]... [--max-rate N] [--no-wait-saved]
                                     prepare, apply and wait (on a server, also until it saved the
                                     blocks to disk); blocks a person changed by hand are kept
                                     where the design there is unchanged, else the build is refused
                                     naming them (keep them, or replace named ones); --part names
                                     the written blocks as a part; --take-over lets it take blocks
                                     of those parts (undo gives them back); a recipe over one plan's
                                     100,000 blocks (up to 20,000,000) runs in tiles with one progress
                                     bar, resumes when run again, and becomes one part
  mcb build <recipe.json> --preview -o <out.jpg> [--side S] [--overlay none]
                                     prepare and draw the plan as if built (see mcb preview);
                                     nothing is written to the world`,
  async run(c) {
    if (c.args.length !== 1) return c.usage(c.args.length === 0 ? "missing the recipe file" : `expected one recipe file, got ${c.args.length} arguments`);
    const resolution = resolutionOf(c.values);
    if (!resolution.ok) return c.usage(resolution.problem);
    if (c.values.preview === true) {
      const options = previewOptions(c);
      if (typeof options === "string") return c.usage(options);
      return c.withWorkspace(
        async (w) =>
          c.emit(await previewRecipeFile(w, c.file(c.args[0]!), resolution.value, options.output, options), (v) =>
            [
              `plan ${v.plan.plan_id} (${v.plan.changed_blocks} changes, ${v.plan.unchanged_blocks} already in place)`,
              ...formatManualEdits(v.plan),
              v.preview === null ? "nothing to preview: the world already holds this design" : previewLine(v.preview),
            ].join("\n"),
          ),
        { create: true },
      );
    }
    const limits = rateLimits(c);
    if (limits === null) return c.usage("--max-rate takes a positive number of blocks per second");
    return c.withWorkspace(
      async (w) => {
        const takeOver =
          typeof c.values["take-over"] === "string"
            ? {
                takeOver: c.values["take-over"]
                  .split(",")
                  .map((t) => t.trim())
                  .filter((t) => t.length > 0),
              }
            : {};
        const part = typeof c.values.part === "string" ? { partName: c.values.part, ...takeOver } : takeOver;
        const r = await buildRecipeFile(w, c.file(c.args[0]!), resolution.value, {
          waitSaved: c.values["no-wait-saved"] !== true,
          progress: progressBar(c.io.stderr),
          ...part,
        });
        const code = c.emit(r, (v) => {
          if (v.mode === "tiles") {
            const b = v.batch;
            const named = b.completed?.part_id
              ? `; part ${String(b.completed.part_id)} "${String(b.completed.part_name)}" (${String(b.completed.part_blocks)} blocks)`
              : "";
            return `build ${v.build_id} (${v.positions} positions): ${b.applied} of ${b.tiles} tiles applied, ${b.empty} unchanged, ${b.conflicts} left in conflict, ${b.unfinished} unfinished; ${b.written_blocks} blocks written${named} (progress in ${b.progress_file}; undo with mcb undo ${v.build_id})`;
          }
          return [
            `plan ${v.plan.plan_id} (${v.plan.changed_blocks} changes, ${v.plan.unchanged_blocks} already in place)`,
            ...formatManualEdits(v.plan),
            operationText(v.operation, v.saved_ms ?? null),
          ].join("\n");
        });
        if (!r.ok) return code;
        return r.value.mode === "tiles" ? (r.value.batch.unfinished > 0 ? 3 : 0) : operationExit(r.value.operation);
      },
      { create: true, writes: true, limits },
    );
  },
};

export const undoCommand: Command = {
  name: "undo",
  usage: `  mcb undo <operation_id> [--max-rate N] [--no-wait-saved]   checked undo of one operation (never over a person's edit)
  mcb undo <paste_id | terrain_id | build_id>   every operation of a batch, newest first, each checked, one progress bar`,
  async run(c) {
    if (c.args.length !== 1) return c.usage(c.args.length === 0 ? "missing the operation id" : `expected one operation id, got ${c.args.length} arguments`);
    const limits = rateLimits(c);
    if (limits === null) return c.usage("--max-rate takes a positive number of blocks per second");
    return c.withWorkspace(
      async (w) => {
        const file = batchFile(w.dir, c.args[0]!);
        if (file !== null) {
          const r = await undoBatch(w, c.args[0]!, file, progressBar(c.io.stderr));
          return c.emit(
            r,
            (v) =>
              `${v.batch_id}: ${v.undone} of ${v.operations} operations undone (${v.skipped} had nothing to undo); ${v.restored_blocks} blocks restored, ${v.left_as_they_are} left as they are (changed since)`,
          );
        }
        const r = await undoOperation(w, c.args[0]!, { waitSaved: c.values["no-wait-saved"] !== true });
        const code = c.emit(
          r,
          (v) =>
            `undo plan ${v.plan.plan_id}: ${v.plan.changed_blocks} blocks to restore, ${v.conflicts} left as they are (changed since)${v.uncertain > 0 ? `, ${v.uncertain} of an unfinished slice left as they are (uncertain)` : ""}\n${operationText(v.operation, v.saved_ms ?? null)}`,
        );
        return r.ok ? operationExit(r.value.operation) : code;
      },
      { writes: true, limits },
    );
  },
};

const AREA_WORDS = { option: "--area", save_chunks: "the chunks this save has; --area to change it", default: "the default; --area to change it" } as const;

/** "Minecraft 26.2 (DataVersion 4903): read and write", or the save's own version and why it is read-only. */
function worldVersionLine(world: ProjectContextView["world"]): string {
  const saved = world.saved_by;
  const own =
    saved === undefined
      ? `Minecraft ${world.minecraft_version} (DataVersion ${world.data_version})`
      : `Minecraft ${saved.release} (DataVersion ${saved.data_version})`;
  const blocks = saved !== undefined && saved.data_version !== world.data_version ? `, its blocks read as ${world.minecraft_version}'s` : "";
  return world.read_only === undefined ? `version ${own}: read and write${blocks}` : `version ${own}: read-only${blocks} (${world.read_only})`;
}

export const statusCommand: Command = {
  name: "status",
  usage: "  mcb status                         the world, the project area, recent operations, recovery",
  async run(c) {
    if (c.args.length !== 0) return c.usage(`unexpected ${JSON.stringify(c.args[0])}`);
    return c.withWorkspace(async (w) => {
      const context = await w.engine.projectContext(w.ctx);
      const server = context.ok ? await serverStats(w) : null; // a live server: how smooth its ticks are
      const r = context.ok && server !== null ? { ok: true as const, value: { ...context.value, server } } : context;
      return c.emit(r, (p) =>
        [
          `world ${p.world.id} epoch ${p.world.epoch}, project ${p.project_id}, state directory ${w.dir}`,
          worldVersionLine(p.world),
          `height y ${p.world.min_y}..${p.world.max_y} (${w.save === null ? "the server's" : w.save.save.height.source})`,
          `area x ${p.area.min.x}..${p.area.max.x}, z ${p.area.min.z}..${p.area.max.z}, y ${p.area.min.y}..${p.area.max.y} (${AREA_WORDS[w.area.source]})`,
          ...(server === null ? [] : [serverStatsLine(server)]),
          ...p.recent_operations.map(
            (op) =>
              `  ${op.operation_id} ${op.kind} ${op.status}${op.undone_by === null ? "" : `, undone by ${op.undone_by}`} ${op.written}/${op.total}${op.client === undefined ? "" : ` (${op.client})`}`,
          ),
          p.recovery_required.length > 0 ? `recovery required: ${p.recovery_required.join(", ")} (mcb recovery review <id>)` : "no recovery pending",
        ].join("\n"),
      );
    });
  },
};

export const inspectCommand: Command = {
  name: "inspect",
  usage: "  mcb inspect x1 y1 z1 x2 y2 z2      palette summary of a box (≤ 4096 positions)",
  async run(c) {
    if (c.args.length !== 6 || !c.args.map(Number).every(Number.isSafeInteger)) return c.usage("expected six integers: x1 y1 z1 x2 y2 z2");
    return c.withWorkspace(async (w) =>
      c.emit(await inspectRegion(w, c.args), (v) =>
        [
          `${v.positions} positions`,
          ...v.palette.map(
            (p) => `  ${String(p.count).padStart(5)} ${p.state}${p.unknown === true ? "   (unknown to this world's blocks version: kept as it is)" : ""}`,
          ),
        ].join("\n"),
      ),
    );
  },
};

export const recoveryCommand: Command = {
  name: "recovery",
  usage: `  mcb recovery review <operation_id>             administrator, after a crash
  mcb recovery abandon <operation_id> <digest>   leave the world as it is (digest from the review)`,
  async run(c) {
    const [action, id, digest] = c.args;
    if (action === "review") {
      if (id === undefined || c.args.length !== 2) return c.usage("recovery review takes one operation id");
      return c.withWorkspace(async (w) => {
        const r = await w.engine.recoveryReview(w.admin, { operation_id: id });
        return r.ok ? c.emit({ ok: true, value: reviewView(r.value) }, () => formatReview(r.value)) : c.emit(r, () => "");
      });
    }
    if (action === "abandon") {
      if (id === undefined || digest === undefined || c.args.length !== 3) return c.usage("recovery abandon takes an operation id and the review's digest");
      return c.withWorkspace(async (w) => c.emit(await w.engine.recoveryAbandon(w.admin, { operation_id: id, expected_digest: digest }), formatOperation));
    }
    return c.usage(action === undefined ? "missing the action (review or abandon)" : `unknown action "${action}"`);
  },
};
