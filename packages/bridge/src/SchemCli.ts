import type { WorldLocation } from "./EmbeddedWorld.js";
import { fail, mcbError, type Result } from "@mcb/blocks";
import type { OperationStatusView } from "@mcb/engine";
import { DEFAULT_SCHEMATIC_LIMITS, DROP_CATEGORIES, schematicLimits, type DropCategory, type SchematicLimits } from "@mcb/schematic";
import { emit, intOption, vec, withWorld, type Out } from "./CliSupport.js";
import { progressBar } from "./Batch.js";
import { buildSchematicFile, exportSchematic, importSchematic, schematicFileInfo, type SourceView } from "./SchematicCommands.js";
import { formatManualEdits, formatOperation } from "./WorldCommands.js";

export const SCHEM_USAGE = `  mcb schem build <recipe.json> -o <out.schem> [--origin x,y,z] [--max-positions N] [--sponge-version 2|3]
  mcb schem info <file> [read limits]      .schem (Sponge v1/v2/v3), .litematic, structure .nbt
  mcb schem export <name> [-o <out.schem>] [--sponge-version 2|3] [--origin x,y,z] -- x1 y1 z1 x2 y2 z2
                                     a region of the embedded world into its library (and a file)
  mcb schem import <asset_id | file> --at x,y,z [--rotation 0|90|180|270] [--drop entities,biomes,...]
        [read limits] [--part <name>] [--max-tiles N] [--retry-conflicts] [--on-manual-edit keep] [--max-rate N]
                                     paste: prepare, apply and wait; over 100,000 positions a
                                     resumable batch of tiles that becomes one part
  read limits: --max-positions N (default ${DEFAULT_SCHEMATIC_LIMITS.maxPositions}) --max-file-bytes N (${DEFAULT_SCHEMATIC_LIMITS.maxCompressedBytes})
               --max-nbt-bytes N (${DEFAULT_SCHEMATIC_LIMITS.maxNbtBytes}) --max-palette N (${DEFAULT_SCHEMATIC_LIMITS.maxPaletteEntries}) --max-block-entities N (${DEFAULT_SCHEMATIC_LIMITS.maxBlockEntities})
               (mcb mcp takes them too: the server's policy for every MCP client)
  --drop: what an import may leave out, reported all the same: ${DROP_CATEGORIES.join(", ")}`;

/** parseArgs options of the schematic commands (merged into the CLI's). */
export const SCHEM_OPTIONS = {
  drop: { type: "string" },
  "max-file-bytes": { type: "string" },
  "max-nbt-bytes": { type: "string" },
  "max-palette": { type: "string" },
  "max-block-entities": { type: "string" },
  part: { type: "string" },
  "retry-conflicts": { type: "boolean" },
  "sponge-version": { type: "string" },
} as const;

type Values = Readonly<Record<string, string | boolean | readonly string[] | undefined>>;

/** The read limits from --max-* flags (each a positive integer, at most MAX_SCHEMATIC_LIMITS), or a usage error. */
export function limitsFromFlags(v: Values): Result<SchematicLimits> {
  const flags: [string, keyof SchematicLimits][] = [
    ["max-positions", "maxPositions"],
    ["max-file-bytes", "maxCompressedBytes"],
    ["max-nbt-bytes", "maxNbtBytes"],
    ["max-palette", "maxPaletteEntries"],
    ["max-block-entities", "maxBlockEntities"],
  ];
  const changes: Partial<Record<keyof SchematicLimits, unknown>> = {};
  for (const [flag, key] of flags) {
    const raw = v[flag];
    if (raw === undefined) continue;
    const n = intOption(String(raw));
    if (n === null) return fail(mcbError("invalid_request", `--${flag} must be a positive integer`, { reason: "limit", flag }));
    changes[key] = n;
  }
  const r = schematicLimits(changes);
  if (r.ok) return r;
  const flag = flags.find(([, k]) => k === r.error.details?.field)?.[0];
  return fail(mcbError(r.error.code, flag === undefined ? r.error.message : r.error.message.replace(String(r.error.details?.field), `--${flag}`), r.error.details));
}

function dropFromFlag(v: string | undefined): DropCategory[] | null {
  if (v === undefined) return [];
  const parts = v.split(",").filter((p) => p !== "");
  return parts.every((p) => (DROP_CATEGORIES as readonly string[]).includes(p)) ? (parts as DropCategory[]) : null;
}

/** Lines saying how the file was read: upgrades applied, what was left out. */
function sourceLines(s: SourceView): string[] {
  const lines: string[] = [];
  const up = Object.entries(s.upgrades);
  if (up.length > 0) lines.push(`upgraded from DataVersion ${s.source_data_version}: ${up.map(([k, n]) => `${k} (${n})`).join(", ")}`);
  const l = s.loss;
  if (l.entities) lines.push(`left out ${l.entities.count} entities: ${Object.entries(l.entities.by_type).map(([t, n]) => `${n} ${t}`).join(", ")}`);
  if (l.biomes) lines.push(`left out biomes: ${l.biomes.cells} cells of ${l.biomes.palette.join(", ")}`);
  if (l.orphaned_block_entities) lines.push(`left out ${l.orphaned_block_entities.count} block entities whose block is not one`);
  if (l.unknown_fields) lines.push(`left out unknown fields: ${l.unknown_fields.join(", ")}`);
  return lines;
}

/** `mcb schem …`: 0 success, 1 structured error, 2 usage, 3 an operation or batch not finished as applied. */
export async function runSchemCommand(args: readonly string[], v: Values, state: string | WorldLocation, o: Out): Promise<number> {
  const usage = (): number => {
    process.stderr.write(`usage:\n${SCHEM_USAGE}\n`);
    return 2;
  };
  const [action, file] = args;
  const limits = limitsFromFlags(v);
  if (!limits.ok) return emit(limits, o, () => "");
  const sv = v["sponge-version"] === undefined ? 3 : Number(v["sponge-version"]);
  if (sv !== 2 && sv !== 3) return usage();
  const output = typeof v.output === "string" ? v.output : undefined;
  const origin = vec(typeof v.origin === "string" ? v.origin : undefined);
  if (origin === null) return usage();
  if (action === "build" && file !== undefined && args.length === 2 && output !== undefined) {
    const max = intOption(typeof v["max-positions"] === "string" ? v["max-positions"] : undefined);
    const r = await buildSchematicFile(file, output, { ...(origin ? { origin } : {}), ...(max ? { maxPositions: max } : {}), version: sv });
    return emit(r, o, (a) => `wrote ${output} (Sponge v${sv}): ${a.width}×${a.height}×${a.length}, ${a.block_count} blocks, ${a.bytes} bytes, sha256 ${a.sha256}`);
  }
  if (action === "export" && file !== undefined && args.length === 8) {
    const c = args.slice(2).map(Number);
    if (!c.every(Number.isSafeInteger)) return usage();
    const [x1, y1, z1, x2, y2, z2] = c as [number, number, number, number, number, number];
    return withWorld(state, async (w) =>
      emit(await exportSchematic(w, file, { x: x1, y: y1, z: z1 }, { x: x2, y: y2, z: z2 }, origin, output, sv), o, (a) =>
        `saved asset ${a.asset_id}: ${a.width}×${a.height}×${a.length}, ${a.block_count} blocks, ${a.block_entities} block entities, ${a.bytes} bytes, sha256 ${a.sha256}${output === undefined ? "" : `; wrote ${output} (Sponge v${sv})`}`,
      ),
    );
  }
  if (action === "import" && file !== undefined && args.length === 2) {
    const at = vec(typeof v.at === "string" ? v.at : undefined);
    const rotation = Number(v.rotation ?? 0);
    const drop = dropFromFlag(typeof v.drop === "string" ? v.drop : undefined);
    const maxTiles = intOption(typeof v["max-tiles"] === "string" ? v["max-tiles"] : undefined);
    if (at === null || at === undefined || ![0, 90, 180, 270].includes(rotation) || drop === null || maxTiles === null) return usage();
    const onManualEdit = v["on-manual-edit"] === "keep" ? "keep" : undefined;
    const maxRate = intOption(typeof v["max-rate"] === "string" ? v["max-rate"] : undefined);
    if (maxRate === null) return usage();
    return withWorld(state, async (w) => {
      const r = await importSchematic(w, file, at, {
        ...(onManualEdit === undefined ? {} : { onManualEdit }),
        rotation: rotation as 0 | 90 | 180 | 270,
        drop,
        limits: limits.value,
        retryConflicts: v["retry-conflicts"] === true,
        ...(typeof v.part === "string" ? { part: v.part } : {}),
        ...(maxTiles === undefined ? {} : { maxTiles }),
        progress: progressBar(process.stderr),
      });
      const code = emit(r, o, (x) => {
        const head = sourceLines(x.source);
        if (x.mode === "single") {
          const op: OperationStatusView | null = x.operation;
          return [...head, `paste plan ${x.plan.plan_id} (${x.plan.changed_blocks} changes, ${x.plan.unchanged_blocks} already in place)`, ...formatManualEdits(x.plan), op === null ? "nothing to write: the world already holds this paste (no operation)" : formatOperation(op)].join("\n");
        }
        const b = x.batch;
        const part = b.completed?.part_id ? `; part ${String(b.completed.part_id)} "${String(b.completed.part_name)}" (${String(b.completed.part_blocks)} blocks)` : "";
        return [...head, `paste ${x.paste_id}: ${b.applied} of ${b.tiles} tiles applied, ${b.empty} unchanged, ${b.conflicts} left in conflict, ${b.unfinished} unfinished; ${b.written_blocks} blocks written${part} (progress in ${b.progress_file})`].join("\n");
      });
      if (!r.ok) return code;
      if (r.value.mode === "single") return r.value.operation === null || r.value.operation.status === "applied" ? 0 : 3;
      return r.value.batch.unfinished > 0 ? 3 : 0;
    }, { writes: true, limits: maxRate === undefined ? {} : { maxBlocksPerSecond: maxRate } });
  }
  if (action === "info" && file !== undefined && args.length === 2)
    return emit(await schematicFileInfo(file, limits.value), o, (a) =>
      [
        `${a.name}: ${a.format}, ${a.width}×${a.height}×${a.length} (${a.block_count} non-air, ${a.block_entities} block entities), DataVersion ${a.data_version}${a.source_data_version !== a.data_version ? ` (file: ${a.source_data_version})` : ""}, offset ${a.offset.x} ${a.offset.y} ${a.offset.z}`,
        `${a.bytes} bytes, sha256 ${a.sha256}`,
        ...sourceLines({ format: a.format, source_data_version: a.source_data_version, upgrades: a.upgrades, loss: a.loss }).map((l) => l.replace(/^left out/, "an import leaves out")),
        ...a.palette.map((p) => `  ${String(p.count).padStart(8)} ${p.state}`),
      ].join("\n"),
    );
  return usage();
}
