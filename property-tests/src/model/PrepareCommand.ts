import type fc from "fast-check";
import { boxRecipe, type Harness } from "../Harness.js";
import { ARENA, expectEqual, expectError, key, mergeAt, note, sync, type Model, type ModelWrite } from "./Model.js";

/** How a prepare meets people's edits: refuse (default), keep them, or name every one in `replace`. */
export type EditPolicy = "refuse" | "keep" | "replace";

/**
 * build_prepare of a box between two arena positions, merged three ways with what we wrote
 * before and what people changed since: a person's edit is kept where our design is unchanged,
 * refused as a conflict (nothing prepared) where it changes, unless the policy keeps or replaces it.
 */
export class PrepareCommand implements fc.AsyncCommand<Model, Harness> {
  constructor(
    readonly a: number,
    readonly b: number,
    readonly state: string,
    readonly dep: number | null = null,
    readonly policy: EditPolicy = "refuse",
  ) {}

  check(): boolean {
    return true;
  }

  async run(m: Model, h: Harness): Promise<void> {
    const pa = ARENA[this.a % ARENA.length]!;
    const pb = ARENA[this.b % ARENA.length]!;
    const dep = this.dep === null ? null : ARENA[this.dep % ARENA.length]!;
    const inBox = ARENA.filter((p) => p.x >= Math.min(pa.x, pb.x) && p.x <= Math.max(pa.x, pb.x) && p.z >= Math.min(pa.z, pb.z) && p.z <= Math.max(pa.z, pb.z));
    // The engine pulls events before it reads: so does the model, before deciding.
    sync(m);
    const outcomes = inBox.map((p) => ({ p, outcome: mergeAt(m, key(p), this.state) }));
    const manual = outcomes.filter((o) => o.outcome === "kept" || o.outcome === "conflict");
    const replace = this.policy === "replace" ? manual.map((o) => o.p) : [];
    const r = await h.engine.buildPrepare(h.agent, {
      recipe: boxRecipe(pa, pb, this.state),
      ...(dep === null ? {} : { dependencies: [dep] }),
      ...(this.policy === "keep" ? { on_manual_edit: "keep" as const } : {}),
      ...(replace.length > 0 ? { replace } : {}),
    });
    for (const o of outcomes) note(m, `merge ${o.outcome}${o.outcome === "kept" || o.outcome === "conflict" ? ` (${this.policy})` : ""}`);
    const refused = outcomes.filter((o) => o.outcome === "conflict" && this.policy === "refuse");
    if (refused.length > 0) {
      expectError("prepare over people's edits", r, "conflict");
      if (!r.ok) expectEqual("refused positions", (r.error.details as { count: number }).count, refused.length);
      return;
    }
    if (!r.ok) throw new Error(`prepare refused where the model expects a plan: ${r.error.code}: ${r.error.message}`);
    const plan = r.value;
    // ARENA is in (y, z, x) order, as plans are.
    const written = new Set(replace.map(key));
    const writeSet: ModelWrite[] = outcomes
      .filter((o) => o.outcome === "write" || written.has(key(o.p)))
      .map((o) => ({ key: key(o.p), before: m.world.get(key(o.p))!, after: this.state }));
    expectEqual("changed_blocks", plan.changed_blocks, writeSet.length);
    expectEqual("unchanged_blocks", plan.unchanged_blocks, outcomes.filter((o) => o.outcome === "unchanged").length);
    expectEqual("manual_edits", [plan.manual_edits.kept, plan.manual_edits.replaced], [manual.length - written.size, written.size]);
    // A dependency that is also written is covered by the write's own check.
    const deps = dep === null || writeSet.some((w) => w.key === key(dep)) ? [] : [{ key: key(dep), state: m.world.get(key(dep))! }];
    expectEqual("dependencies", plan.dependencies, deps.length);
    m.plans.push({ planId: plan.plan_id, planHash: plan.plan_hash, writeSet, replaced: written, deps, preparedAt: m.clock, used: false });
  }

  toString(): string {
    return `prepare(${this.a}..${this.b} ${this.state}${this.dep === null ? "" : ` needs ${this.dep}`}${this.policy === "refuse" ? "" : ` ${this.policy}`})`;
  }
}
