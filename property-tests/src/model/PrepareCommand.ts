import type fc from "fast-check";
import { boxRecipe, unwrap, type Harness } from "../Harness.js";
import { ARENA, expectEqual, key, sync, type Model } from "./Model.js";

/** build_prepare of a box between two arena positions. */
export class PrepareCommand implements fc.AsyncCommand<Model, Harness> {
  constructor(readonly a: number, readonly b: number, readonly state: string, readonly dep: number | null = null) {}

  check(): boolean {
    return true;
  }

  async run(m: Model, h: Harness): Promise<void> {
    const pa = ARENA[this.a % ARENA.length]!;
    const pb = ARENA[this.b % ARENA.length]!;
    const dep = this.dep === null ? null : ARENA[this.dep % ARENA.length]!;
    const r = unwrap(await h.engine.buildPrepare(h.agent, { recipe: boxRecipe(pa, pb, this.state), ...(dep === null ? {} : { dependencies: [dep] }) }));
    sync(m);
    const inBox = ARENA.filter(
      (p) => p.x >= Math.min(pa.x, pb.x) && p.x <= Math.max(pa.x, pb.x) && p.z >= Math.min(pa.z, pb.z) && p.z <= Math.max(pa.z, pb.z),
    );
    // ARENA is in (y, z, x) order, as plans are.
    const writeSet = inBox.filter((p) => m.world.get(key(p)) !== this.state).map((p) => ({ key: key(p), before: m.world.get(key(p))!, after: this.state }));
    expectEqual("changed_blocks", r.changed_blocks, writeSet.length);
    expectEqual("unchanged_blocks", r.unchanged_blocks, inBox.length - writeSet.length);
    // A dependency that is also written is covered by the write's own check.
    const deps = dep === null || writeSet.some((w) => w.key === key(dep)) ? [] : [{ key: key(dep), state: m.world.get(key(dep))! }];
    expectEqual("dependencies", r.dependencies, deps.length);
    m.plans.push({ planId: r.plan_id, planHash: r.plan_hash, writeSet, deps, preparedAt: m.clock, used: false });
  }

  toString(): string {
    return `prepare(${this.a}..${this.b} ${this.state}${this.dep === null ? "" : ` needs ${this.dep}`})`;
  }
}
