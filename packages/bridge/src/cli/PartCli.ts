import type { PartDiffView, PartView } from "@mcb/engine";
import type { Command } from "./Command.js";

function partLine(p: PartView): string {
  return `${p.part_id} "${p.name}": ${p.count} blocks${p.retired ? " (retired: undone)" : ""}${p.bounds === null ? "" : `, ${p.bounds.min.x} ${p.bounds.min.y} ${p.bounds.min.z} .. ${p.bounds.max.x} ${p.bounds.max.y} ${p.bounds.max.z}`}, revision ${p.revision}`;
}

function diffText(d: PartDiffView): string {
  const lines = [
    `${d.part_id ?? d.operation_id}: ${d.changed} of ${d.positions} blocks differ from what we built (${d.observed} edits seen as they happened, ${d.changed - d.observed} found by content)`,
  ];
  for (const b of d.boxes) lines.push(`  ${b.min.x} ${b.min.y} ${b.min.z} .. ${b.max.x} ${b.max.y} ${b.max.z}`);
  if (d.boxes_truncated) lines.push("  … more boxes");
  for (const s of d.sample) lines.push(`  ${s.pos.x} ${s.pos.y} ${s.pos.z}: built ${s.expected}, now ${s.actual}${s.observed ? " (by hand)" : ""}`);
  return lines.join("\n");
}

export const partCommand: Command = {
  name: "part",
  usage: `  mcb part list                      the project's parts (retired ones, emptied by undo, last)
  mcb part define <name> <operation_id>...   the blocks finished operations wrote, as a named part
  mcb part diff (<part_id> | <operation_id>)  where the world no longer holds what we built there
  mcb part rename <part_id> <name>
  mcb part delete <part_id>          forget the part (its blocks stay)`,
  async run(c) {
    const [action, ...rest] = c.args;
    switch (action) {
      case "list":
        if (rest.length !== 0) return c.usage("part list takes no arguments");
        return c.withWorkspace(async (w) => {
          const ctx = await w.engine.projectContext(w.ctx);
          if (!ctx.ok) return c.emit(ctx, () => "");
          const parts: PartView[] = [];
          for (const p of ctx.value.parts) {
            const v = await w.engine.partGet(w.ctx, { part_id: p.part_id });
            if (v.ok) parts.push(v.value);
          }
          return c.emit({ ok: true, value: parts }, (ps) => ps.map(partLine).join("\n") || "(no parts)");
        });
      case "define":
        if (rest.length < 2) return c.usage("part define takes a name and at least one operation id");
        return c.withWorkspace(async (w) => c.emit(await w.engine.partDefine(w.ctx, { name: rest[0]!, operation_ids: rest.slice(1) }), partLine));
      case "diff": {
        if (rest.length !== 1) return c.usage("part diff takes one part id or operation id");
        const id = rest[0]!;
        return c.withWorkspace(async (w) => c.emit(await w.engine.partDiff(w.ctx, id.startsWith("op_") ? { operation_id: id } : { part_id: id }), diffText));
      }
      case "rename":
        if (rest.length !== 2) return c.usage("part rename takes a part id and a name");
        return c.withWorkspace(async (w) => c.emit(await w.engine.partRename(w.ctx, { part_id: rest[0]!, name: rest[1]! }), partLine));
      case "delete":
        if (rest.length !== 1) return c.usage("part delete takes one part id");
        return c.withWorkspace(async (w) =>
          c.emit(
            await w.engine.partDelete(w.ctx, { part_id: rest[0]! }),
            (p) => `deleted part ${p.part_id} "${p.name}" (its ${p.count} blocks stay in the world)`,
          ),
        );
      default:
        return c.usage(action === undefined ? "missing the action (list, define, diff, rename or delete)" : `unknown action "${action}"`);
    }
  },
};
