import { blockIdOf, type BlockRegistry } from "@mcb/blocks";
import type { PreparedPlan } from "./PreparedPlan.js";

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
  return [...byHint].sort(([a], [b]) => (a < b ? -1 : 1)).map(([hint, ids]) => {
    const list = [...ids].sort();
    const shown = list.slice(0, 4).join(", ") + (list.length > 4 ? ` and ${list.length - 4} more` : "");
    return `${hint}: ${shown} ${NOTES[hint] ?? ""}`.trim();
  });
}
