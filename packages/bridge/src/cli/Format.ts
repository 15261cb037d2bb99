import { boxJson } from "@mcb/blocks";
import { hasEnded, type OperationStatusView, type PrepareView, type RecoveryReview } from "@mcb/engine";
import type { PlanSummary } from "@mcb/recipe";
import type { ProgressSink } from "../workspace/jobs/Batch.js";
import type { CliOut } from "./Io.js";

/** How the command line shows engine answers (the `--json` form is the answer itself). */

/** The plan's merge with people's edits, in a line or a few (empty when it met none). */
export function formatManualEdits(plan: PrepareView): string[] {
  const m = plan.manual_edits;
  if (m.kept === 0 && m.replaced === 0) return [];
  const lines = [
    `kept ${m.kept === 1 ? "1 block" : `${m.kept} blocks`} a person changed by hand${m.conflicts > 0 ? ` (${m.conflicts} where the new design differs)` : ""}${m.replaced > 0 ? `; replaced ${m.replaced} as asked` : ""}`,
  ];
  for (const e of m.sample)
    lines.push(`  ${e.outcome} ${e.pos.x} ${e.pos.y} ${e.pos.z}: ${e.actual}${e.expected === null ? "" : ` (we had built ${e.expected})`}`);
  return lines;
}

/** `mcb recovery review`'s answer in the wire spelling (snake_case, like every JSON answer). */
export function reviewView(r: RecoveryReview): Record<string, unknown> {
  return {
    operation_id: r.operationId,
    plan_id: r.planId,
    positions: r.positions,
    matches_before: r.matchesBefore,
    matches_after: r.matchesAfter,
    foreign_states: r.foreignStates,
    lost: r.lost,
    lost_boxes: r.lostBoxes.map(boxJson),
    lost_boxes_truncated: r.lostBoxesTruncated,
    current_digest: r.currentDigest,
    sampled_at: new Date(r.sampledAtMillis).toISOString(),
  };
}

/** The review for a person: what is where, and the command that abandons it. */
export function formatReview(r: RecoveryReview): string {
  return [
    `operation ${r.operationId} (plan ${r.planId}): ${r.positions} positions reviewed`,
    `  ${r.matchesAfter} hold what it would write, ${r.matchesBefore} what was there before, ${r.foreignStates} something else`,
    ...(r.lost > 0 ? [`  ${r.lost} confirmed writes were lost when the world's server stopped before saving them`] : []),
    `  to leave the world as it is: mcb recovery abandon ${r.operationId} ${r.currentDigest}`,
  ].join("\n");
}

export function formatOperation(op: OperationStatusView): string {
  const c = op.counters;
  const lines = [
    `operation ${op.operation_id} ${op.status}${op.kind === "undo" ? ` (undo of ${op.undo_of})` : ""}`,
    `  written ${c.written} of ${c.total}, skipped ${c.skipped}, conflicts ${c.conflicts}, slices ${c.slices_done}/${c.slices_total}${c.unconfirmed > 0 ? `, ${c.unconfirmed} more in the world but never confirmed` : ""}`,
  ];
  if (c.lost > 0) lines.push(`  ${c.lost} of its blocks were lost when the world's server stopped before saving them`);
  if (op.saved === false && hasEnded(op.status)) lines.push("  not yet saved to disk by the world");
  for (const k of op.conflicts)
    lines.push(
      `  conflict ${k.kind} at ${k.pos.x} ${k.pos.y} ${k.pos.z}: expected ${k.expected}, found ${k.actual}${k.changed_since_prepare && k.actual === k.expected && !k.data_changed ? " (changed and changed back since the plan was prepared)" : ""}`,
    );
  if (op.error !== null) lines.push(`  ${op.error.code}: ${op.error.message}`);
  return lines.join("\n");
}

/** Human-readable summary: hash, count, bounds and size, palette counts. */
export function formatSummary(s: PlanSummary): string {
  const lines = [`plan_hash      ${s.plan_hash}`, `changed_blocks ${s.changed_blocks}`];
  if (s.bounds !== null) {
    const { min, max } = s.bounds;
    const size = `${max.x - min.x + 1}×${max.y - min.y + 1}×${max.z - min.z + 1}`;
    lines.push(`bounds         (${min.x}, ${min.y}, ${min.z}) .. (${max.x}, ${max.y}, ${max.z})  ${size}`);
  } else {
    lines.push("bounds         (empty plan)");
  }
  if (s.filtered_blocks > 0) lines.push(`filtered       ${s.filtered_blocks} (written only where the source filter matches)`);
  if (s.dependencies > 0) lines.push(`dependencies   ${s.dependencies}`);
  lines.push(`palette        ${s.palette.length} states (Minecraft ${s.minecraft_version})`);
  const width = String(s.palette[0]?.count ?? 0).length;
  for (const p of s.palette) lines.push(`  ${String(p.count).padStart(width)}  ${p.state}`);
  return lines.join("\n");
}

/**
 * One progress bar for a terminal (carriage return) or a log (one line per report): tiles done,
 * blocks written, blocks per second and the time left, measured over what this run did (tiles a
 * rerun skips are not counted as its speed).
 */
export function progressBar(stream: CliOut, now: () => number = () => performance.now()): ProgressSink {
  let start: { at: number; done: number; written: number } | null = null;
  return (done, total, line, written) => {
    const t = now();
    start ??= { at: t, done, written };
    const seconds = (t - start.at) / 1000;
    const tiles = done - start.done;
    const rate = seconds > 0 ? (written - start.written) / seconds : 0;
    const eta = tiles > 0 && done < total ? `  ${Math.ceil((seconds / tiles) * (total - done))} s left` : "";
    const speed = rate > 0 ? `  ${Math.round(rate).toLocaleString("en-US")} blocks/s` : "";
    const width = 24;
    const filled = Math.round((done / Math.max(1, total)) * width);
    const bar = `[${"#".repeat(filled)}${"-".repeat(width - filled)}] ${done}/${total} tiles  ${written.toLocaleString("en-US")} blocks${speed}${eta}  ${line}`;
    stream.write(stream.isTTY ? `\r\x1b[2K${bar}${done === total ? "\n" : ""}` : `${bar}\n`);
  };
}

/** The text of an apply: the operation, or that there was nothing to write. */
export function operationText(op: OperationStatusView | null, savedMs: number | null = null): string {
  if (op === null) return "nothing to write (no operation)";
  const part =
    op.part === null
      ? ""
      : op.part.part_id !== null
        ? `\n  part "${op.part.name}": ${op.part.part_id}`
        : op.part.error !== null
          ? `\n  part "${op.part.name}" not named: ${op.part.error.message}`
          : "";
  return formatOperation(op) + part + (savedMs === null ? "" : `\n  saved to disk in ${savedMs} ms`);
}

/** 0 when the operation applied (or nothing needed writing), 3 when it ended otherwise. */
export function operationExit(op: OperationStatusView | null): number {
  return op === null || op.status === "applied" ? 0 : 3;
}
