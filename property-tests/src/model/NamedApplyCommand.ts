import type fc from "fast-check";
import type { Harness } from "../Harness.js";
import { applyAndCheck } from "./ApplyModel.js";
import { expectEqual, expectError, note, type Model } from "./Model.js";
import { active, assertParts, nameModelPart } from "./PartModel.js";

const NAMES = ["a", "b", "c"] as const;

/**
 * build_apply with part_name (one of three names) and, with `takeOver`, take_over of every active
 * part: refused before anything is written when the plan writes blocks of a part it does not take
 * over (other than the part it names); otherwise applied and, once ended with writes, named (an
 * active part of that name grows), taking the blocks it shares with the parts taken over.
 */
export class NamedApplyCommand implements fc.AsyncCommand<Model, Harness> {
  constructor(
    readonly plan: number,
    readonly name: number,
    readonly takeOver: boolean,
  ) {}

  check(m: Readonly<Model>): boolean {
    return m.plans.length > 0;
  }

  async run(m: Model, h: Harness): Promise<void> {
    // The newest plan not yet applied, if any (a used plan is refused before naming: see ApplyCommand).
    const unused = m.plans.findLastIndex((p) => !p.used);
    const index = unused < 0 ? this.plan % m.plans.length : m.plans.length - 1 - unused;
    const plan = m.plans[m.plans.length - 1 - index]!;
    const name = NAMES[this.name % NAMES.length]!;
    const victims = this.takeOver ? active(m) : [];
    const naming = { part_name: name, ...(victims.length === 0 ? {} : { take_over: victims.map((p) => p.name) }) };
    const admitted = !plan.used && plan.writeSet.length > 0 && m.pending === null;
    // The name of an active part grows that part: its own blocks may be written again.
    const growing = active(m).find((p) => p.name === name);
    const refusal = !admitted
      ? null
      : active(m).some((p) => p !== growing && !victims.includes(p) && plan.writeSet.some((w) => p.keys.has(w.key)))
        ? "part_overlap"
        : null;
    if (refusal !== null) {
      note(m, `named apply refused: ${refusal}`);
      const r = await h.engine.buildApply(h.agent, { plan_id: plan.planId, plan_hash: plan.planHash, idempotency_key: `named-${m.keys++}`, ...naming });
      expectError(`named apply (${refusal})`, r, "invalid_request");
      if (!r.ok) expectEqual("refusal reason", (r.error.details as { reason?: string }).reason, refusal);
      return assertParts(m, h);
    }
    const op = await applyAndCheck(m, h, index, { kind: "none" }, 0, naming);
    if (op !== null && op.written.size > 0) nameModelPart(m, op, name, victims);
    assertParts(m, h);
  }

  toString(): string {
    return `apply(plan ${this.plan} as part ${NAMES[this.name % NAMES.length]}${this.takeOver ? " taking over all" : ""})`;
  }
}
