import type { PartDiffView, PartView } from "@mcb/engine";
import { emit, withWorld, type Out } from "./CliSupport.js";
import type { WorldLocation } from "./EmbeddedWorld.js";

export const PART_USAGE = `  mcb part list                      the project's parts (retired ones emptied by undo last)
  mcb part define <name> <operation_id>...   the blocks applied operations wrote, as a named part
  mcb part diff (<part_id> | <operation_id>)  where the world no longer holds what we built there
  mcb part rename <part_id> <name>
  mcb part delete <part_id>          forget the part (its blocks stay)`;

function partLine(p: PartView): string {
  return `${p.part_id} "${p.name}": ${p.count} blocks${p.retired ? " (retired: undone)" : ""}${p.bounds === null ? "" : `, ${p.bounds.min.x} ${p.bounds.min.y} ${p.bounds.min.z} .. ${p.bounds.max.x} ${p.bounds.max.y} ${p.bounds.max.z}`}, revision ${p.revision}`;
}

function diffText(d: PartDiffView): string {
  const lines = [`${d.part_id ?? d.operation_id}: ${d.changed} of ${d.positions} blocks differ from what we built (${d.observed} edits seen as they happened, ${d.changed - d.observed} found by content)`];
  for (const b of d.boxes) lines.push(`  ${b.min.x} ${b.min.y} ${b.min.z} .. ${b.max.x} ${b.max.y} ${b.max.z}`);
  if (d.boxes_truncated) lines.push("  … more boxes");
  for (const s of d.sample) lines.push(`  ${s.pos.x} ${s.pos.y} ${s.pos.z}: built ${s.expected}, now ${s.actual}${s.observed ? " (by hand)" : ""}`);
  return lines.join("\n");
}

/** `mcb part …`: 0 success, 1 structured error, 2 usage. */
export async function runPartCommand(args: readonly string[], state: WorldLocation, o: Out): Promise<number> {
  const [action, ...rest] = args;
  if (action === "list" && rest.length === 0)
    return withWorld(state, async (w) => {
      const c = await w.engine.projectContext(w.ctx);
      if (!c.ok) return emit(c, o, () => "");
      const parts: PartView[] = [];
      for (const p of c.value.parts) {
        const v = await w.engine.partGet(w.ctx, { part_id: p.part_id });
        if (v.ok) parts.push(v.value);
      }
      return emit({ ok: true, value: parts }, o, (ps) => ps.map(partLine).join("\n") || "(no parts)");
    });
  if (action === "define" && rest.length >= 2)
    return withWorld(state, async (w) => emit(await w.engine.partDefine(w.ctx, { name: rest[0]!, operation_ids: rest.slice(1) }), o, partLine));
  if (action === "diff" && rest.length === 1) {
    const id = rest[0]!;
    return withWorld(state, async (w) => emit(await w.engine.partDiff(w.ctx, id.startsWith("op_") ? { operation_id: id } : { part_id: id }), o, diffText));
  }
  if (action === "rename" && rest.length === 2) return withWorld(state, async (w) => emit(await w.engine.partRename(w.ctx, { part_id: rest[0]!, name: rest[1]! }), o, partLine));
  if (action === "delete" && rest.length === 1) return withWorld(state, async (w) => emit(await w.engine.partDelete(w.ctx, { part_id: rest[0]! }), o, (p) => `deleted part ${p.part_id} "${p.name}" (its ${p.count} blocks stay in the world)`));
  process.stderr.write(`usage:\n${PART_USAGE}\n`);
  return 2;
}
