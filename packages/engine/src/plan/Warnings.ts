import { isAir, blockIdOf, type BlockRegistry } from "@mcb/blocks";
import type { PreparedPlan } from "../core/PreparedPlan.js";

/** Hints said per material; support, halves and falling are checked per position (`placementWarnings`). */
const NOTES: Readonly<Record<string, string>> = {
  fluid: "flows after placement",
  block_entity: "gets default block-entity data",
};

/** Behaviour warnings for the materials a plan writes (see `behaviorHints` in @mcb/blocks): advisory, never blocking. */
export function planWarnings(registry: BlockRegistry, plan: PreparedPlan): string[] {
  if (plan.pos.length === 0) return ["nothing to change: the world already holds this plan (build_apply refuses it, no operation is created)"];
  const byHint = new Map<string, Set<string>>();
  for (const s of new Set(plan.after)) {
    const id = blockIdOf(plan.states[s]!);
    for (const hint of registry.blockTypes.get(id)?.behavior ?? []) {
      if (NOTES[hint] === undefined) continue;
      let ids = byHint.get(hint);
      if (ids === undefined) byHint.set(hint, (ids = new Set()));
      ids.add(id);
    }
  }
  const air = plan.origin === "import" ? airOverBlocks(plan) : [];
  return [
    ...air,
    ...[...byHint]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([hint, ids]) => {
        const list = [...ids].sort();
        const shown = list.slice(0, 4).join(", ") + (list.length > 4 ? ` and ${list.length - 4} more` : "");
        return `${hint}: ${shown} ${NOTES[hint] ?? ""}`.trim();
      }),
  ];
}

/** A paste's air that replaces blocks standing there: said with a count and where (WorldEdit pastes air too; `-a` skips it). */
function airOverBlocks(plan: PreparedPlan): string[] {
  const air = plan.states.map(isAir); // once per state, not per position
  let count = 0;
  const at: string[] = [];
  for (let i = 0; i < plan.after.length; i++) {
    if (!air[plan.after[i]!] || air[plan.before[i]!]) continue;
    count++;
    if (at.length < 5) at.push(`${plan.pos[i * 3]} ${plan.pos[i * 3 + 1]} ${plan.pos[i * 3 + 2]}`);
  }
  return count === 0
    ? []
    : [
        `air: the paste's air replaces ${count} existing block${count === 1 ? "" : "s"} (at ${at.join("; ")}${count > at.length ? `; and ${count - at.length} more` : ""}); paste without its air (--skip-air, include_air: false) to keep them`,
      ];
}
