import { existsSync } from "node:fs";
import { fail, type Result } from "@mcb/blocks";
import type { OperationStatusView } from "@mcb/engine";
import { DEFAULT_SCHEMATIC_LIMITS, DROP_CATEGORIES, schematicLimits, type DropCategory, type SchematicLimits } from "@mcb/schematic";
import { buildSchematicFile, exportSchematic, importSchematic, schematicFileInfo, type SourceView } from "../workspace/jobs/SchematicJobs.js";
import { intOption, vecOption, type Values } from "./Args.js";
import type { Command } from "./Command.js";
import { formatManualEdits, formatOperation, progressBar } from "./Format.js";
import { rateLimits } from "./WorldCli.js";

export const READ_LIMITS_USAGE = `  read limits: --max-positions N (default ${DEFAULT_SCHEMATIC_LIMITS.maxPositions}) --max-file-bytes N (${DEFAULT_SCHEMATIC_LIMITS.maxCompressedBytes})
               --max-nbt-bytes N (${DEFAULT_SCHEMATIC_LIMITS.maxNbtBytes}) --max-palette N (${DEFAULT_SCHEMATIC_LIMITS.maxPaletteEntries}) --max-block-entities N (${DEFAULT_SCHEMATIC_LIMITS.maxBlockEntities})`;

const FLAGS: readonly (readonly [string, keyof SchematicLimits])[] = [
  ["max-positions", "maxPositions"],
  ["max-file-bytes", "maxCompressedBytes"],
  ["max-nbt-bytes", "maxNbtBytes"],
  ["max-palette", "maxPaletteEntries"],
  ["max-block-entities", "maxBlockEntities"],
];

/**
 * The read limits from --max-* flags (each a positive integer, at most MAX_SCHEMATIC_LIMITS).
 * Errors name the flag in `details.flag` (and the limit in `details.field`).
 */
export function limitsFromFlags(v: Values): Result<SchematicLimits> {
  const changes: Partial<Record<keyof SchematicLimits, unknown>> = {};
  for (const [flag, key] of FLAGS) {
    const raw = v[flag];
    if (raw !== undefined) changes[key] = intOption(raw) ?? Number.NaN;
  }
  const r = schematicLimits(changes);
  if (r.ok) return r;
  const flag = FLAGS.find(([, k]) => k === r.error.details?.field)?.[0];
  return fail({ ...r.error, details: { ...r.error.details, ...(flag === undefined ? {} : { flag: `--${flag}` }) } });
}

function dropFromFlag(v: unknown): DropCategory[] | null {
  if (v === undefined) return [];
  if (typeof v !== "string") return null;
  const parts = v.split(",").filter((p) => p !== "");
  return parts.every((p) => (DROP_CATEGORIES as readonly string[]).includes(p)) ? (parts as DropCategory[]) : null;
}

const signed = (n: number): string => (n < 0 ? ` − ${-n}` : ` + ${n}`);

/** Lines saying how the file was read: upgrades applied, what was left out. */
function sourceLines(s: SourceView): string[] {
  const lines: string[] = [];
  const up = Object.entries(s.upgrades);
  if (up.length > 0) lines.push(`upgraded from DataVersion ${s.source_data_version}: ${up.map(([k, n]) => `${k} (${n})`).join(", ")}`);
  const l = s.loss;
  if (l.entities)
    lines.push(
      `left out ${l.entities.count} entities: ${Object.entries(l.entities.by_type)
        .map(([t, n]) => `${n} ${t}`)
        .join(", ")}`,
    );
  if (l.biomes) lines.push(`left out biomes: ${l.biomes.cells} cells of ${l.biomes.palette.join(", ")}`);
  if (l.orphaned_block_entities) lines.push(`left out ${l.orphaned_block_entities.count} block entities whose block is not one`);
  if (l.unknown_fields) lines.push(`left out unknown fields: ${l.unknown_fields.join(", ")}`);
  if (l.unknown_blocks)
    lines.push(
      `left out ${l.unknown_blocks.count} positions of states this build does not know (a newer game's; left as they are): ${l.unknown_blocks.states.map((u) => `${u.count} ${u.state}`).join(", ")}`,
    );
  if (l.dropped_properties)
    lines.push(
      `dropped properties their blocks do not have, in ${l.dropped_properties.count} palette entries: ${l.dropped_properties.sample.map((d) => `${d.dropped.join(",")} of ${d.state}`).join("; ")} (--strict refuses instead)`,
    );
  for (const n of s.notes ?? []) lines.push(`note: ${n}`);
  return lines;
}

export const schemCommand: Command = {
  name: "schem",
  usage: `  mcb schem build <recipe.json> -o <out.schem> [--origin x,y,z] [--max-positions N] [--sponge-version 2|3]
  mcb schem info <file> [read limits] [--strict]   .schem (Sponge v1/v2/v3), .litematic, structure .nbt;
                                     where a paste lands: block 0 0 0 at --at + offset
  mcb schem export <name> x1 y1 z1 x2 y2 z2 [-o <out.schem>] [--sponge-version 2|3] [--origin x,y,z]
                                     a region of the embedded world into its library (and a file)
  mcb schem import <asset_id | file> --at x,y,z [--rotation 0|90|180|270] [--drop entities,biomes,...]
        [read limits] [--skip-air] [--strict] [--part <name>] [--max-tiles N] [--retry-conflicts] [--on-manual-edit keep] [--max-rate N]
                                     paste: prepare, apply and wait; over 100,000 positions a
                                     resumable batch of tiles that becomes one part. The schematic's
                                     block 0 0 0 lands at --at + its offset (turned with --rotation);
                                     its air clears what stands there unless --skip-air (WorldEdit -a);
                                     --strict refuses states with properties their blocks lack
${READ_LIMITS_USAGE}
               (mcb mcp takes them too: the server's policy for every MCP client)
  --drop: what an import may leave out, reported all the same: ${DROP_CATEGORIES.join(", ")}`,
  async run(c) {
    const [action, file] = c.args;
    const v = c.values;
    const limits = limitsFromFlags(v);
    if (!limits.ok) return c.emit(limits, () => "");
    const sv = v["sponge-version"] === undefined ? 3 : Number(v["sponge-version"]);
    if (sv !== 2 && sv !== 3) return c.usage("--sponge-version is 2 or 3");
    const output = typeof v.output === "string" ? c.file(v.output) : undefined;
    const origin = vecOption(v.origin);
    if (origin === null) return c.usage("--origin takes a position x,y,z");
    switch (action) {
      case "build": {
        if (file === undefined || c.args.length !== 2) return c.usage("schem build takes one recipe file");
        if (output === undefined) return c.usage("build: missing -o <out.schem>");
        const max = intOption(v["max-positions"]);
        const r = await buildSchematicFile(c.file(file), output, { ...(origin ? { origin } : {}), ...(max ? { maxPositions: max } : {}), version: sv });
        return c.emit(
          r,
          (a) => `wrote ${output} (Sponge v${sv}): ${a.width}×${a.height}×${a.length}, ${a.block_count} blocks, ${a.bytes} bytes, sha256 ${a.sha256}`,
        );
      }
      case "export": {
        const coords = c.args.slice(2).map(Number);
        if (file === undefined || coords.length !== 6 || !coords.every(Number.isSafeInteger))
          return c.usage("schem export takes a name and six integers x1 y1 z1 x2 y2 z2");
        const [x1, y1, z1, x2, y2, z2] = coords as [number, number, number, number, number, number];
        return c.withWorkspace(async (w) =>
          c.emit(
            await exportSchematic(w, file, { x: x1, y: y1, z: z1 }, { x: x2, y: y2, z: z2 }, origin, output, sv),
            (a) =>
              `saved asset ${a.asset_id}: ${a.width}×${a.height}×${a.length}, ${a.block_count} blocks, ${a.block_entities} block entities, ${a.bytes} bytes, sha256 ${a.sha256}${output === undefined ? "" : `; wrote ${output} (Sponge v${sv})`}`,
          ),
        );
      }
      case "import":
        return runImport(c, file, limits.value);
      case "info":
        if (file === undefined || c.args.length !== 2) return c.usage("schem info takes one file");
        return c.emit(await schematicFileInfo(c.file(file), limits.value, v.strict === true), (a) =>
          [
            `${a.name}: ${a.format}, ${a.width}×${a.height}×${a.length} (${a.block_count} non-air, ${a.block_entities} block entities), DataVersion ${a.data_version}${a.source_data_version !== a.data_version ? ` (file: ${a.source_data_version})` : ""}, offset ${a.offset.x} ${a.offset.y} ${a.offset.z}`,
            `a paste --at X Y Z lands at X${signed(a.offset.x)} Y${signed(a.offset.y)} Z${signed(a.offset.z)} .. X${signed(a.offset.x + a.width - 1)} Y${signed(a.offset.y + a.height - 1)} Z${signed(a.offset.z + a.length - 1)} (rotation turns it about X Y Z)`,
            `${a.bytes} bytes, sha256 ${a.sha256}`,
            ...sourceLines({ format: a.format, source_data_version: a.source_data_version, upgrades: a.upgrades, loss: a.loss, notes: a.notes }).map((l) =>
              l.replace(/^left out/, "an import leaves out"),
            ),
            ...a.palette.map((p) => `  ${String(p.count).padStart(8)} ${p.state}`),
          ].join("\n"),
        );
      default:
        return c.usage(action === undefined ? "missing the action (build, info, export or import)" : `unknown action "${action}"`);
    }
  },
};

async function runImport(c: Parameters<Command["run"]>[0], file: string | undefined, limits: SchematicLimits): Promise<number> {
  const v = c.values;
  if (file === undefined || c.args.length !== 2) return c.usage("schem import takes one asset id or file");
  const at = vecOption(v.at);
  if (at === null || at === undefined) return c.usage("import: missing --at x,y,z");
  const rotation = Number(v.rotation ?? 0);
  if (![0, 90, 180, 270].includes(rotation)) return c.usage("--rotation is 0, 90, 180 or 270");
  const drop = dropFromFlag(v.drop);
  if (drop === null) return c.usage(`--drop takes a list of ${DROP_CATEGORIES.join(", ")}`);
  const maxTiles = intOption(v["max-tiles"]);
  if (maxTiles === null) return c.usage("--max-tiles takes a positive integer");
  const rate = rateLimits(c);
  if (rate === null) return c.usage("--max-rate takes a positive number of blocks per second");
  const policy = v["on-manual-edit"];
  if (policy !== undefined && policy !== "keep" && policy !== "refuse") return c.usage("--on-manual-edit is keep or refuse");
  return c.withWorkspace(
    async (w) => {
      const named = c.file(file);
      const r = await importSchematic(w, existsSync(named) ? named : file, at, {
        rotation: rotation as 0 | 90 | 180 | 270,
        drop,
        limits,
        retryConflicts: v["retry-conflicts"] === true,
        skipAir: v["skip-air"] === true,
        strict: v.strict === true,
        ...(policy === "keep" ? { onManualEdit: "keep" as const } : {}),
        ...(typeof v.part === "string" ? { part: v.part } : {}),
        ...(maxTiles === undefined ? {} : { maxTiles }),
        progress: progressBar(c.io.stderr),
      });
      const code = c.emit(r, (x) => {
        const head = sourceLines(x.source);
        if (x.mode === "single") {
          const op: OperationStatusView | null = x.operation;
          const pb = x.plan.paste_bounds;
          return [
            ...head,
            `lands at ${pb.min.x} ${pb.min.y} ${pb.min.z} .. ${pb.max.x} ${pb.max.y} ${pb.max.z}`,
            `paste plan ${x.plan.plan_id} (${x.plan.changed_blocks} changes, ${x.plan.unchanged_blocks} already in place)`,
            ...formatManualEdits(x.plan),
            op === null ? "nothing to write: the world already holds this paste (no operation)" : formatOperation(op),
          ].join("\n");
        }
        const b = x.batch;
        const part = b.completed?.part_id
          ? `; part ${String(b.completed.part_id)} "${String(b.completed.part_name)}" (${String(b.completed.part_blocks)} blocks)`
          : "";
        return [
          ...head,
          `lands at ${x.bounds.min.x} ${x.bounds.min.y} ${x.bounds.min.z} .. ${x.bounds.max.x} ${x.bounds.max.y} ${x.bounds.max.z}`,
          `paste ${x.paste_id}: ${b.applied} of ${b.tiles} tiles applied, ${b.empty} unchanged, ${b.conflicts} left in conflict, ${b.unfinished} unfinished; ${b.written_blocks} blocks written${part} (progress in ${b.progress_file})`,
        ].join("\n");
      });
      if (!r.ok) return code;
      if (r.value.mode === "single") return r.value.operation === null || r.value.operation.status === "applied" ? 0 : 3;
      return r.value.batch.unfinished > 0 ? 3 : 0;
    },
    { create: true, writes: true, limits: rate },
  );
}
