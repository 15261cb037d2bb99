import type { CrashPoint } from "../Faults.js";
import type fc from "fast-check";
import type { Harness } from "../Harness.js";
import { applyAndCheck } from "./ApplyModel.js";
import type { Model } from "./Model.js";

/** build_apply with the host crashing at a crash point (then the process restarts). */
export class CrashDuringApplyCommand implements fc.AsyncCommand<Model, Harness> {
  constructor(
    readonly plan: number,
    readonly point: CrashPoint,
    readonly skip: number,
  ) {}

  check(m: Readonly<Model>): boolean {
    return m.plans.length > 0;
  }

  async run(m: Model, h: Harness): Promise<void> {
    await applyAndCheck(m, h, this.plan, { kind: "crash", point: this.point, skip: this.skip });
  }

  toString(): string {
    return `apply+crash(plan ${this.plan} at ${this.point} #${this.skip})`;
  }
}
