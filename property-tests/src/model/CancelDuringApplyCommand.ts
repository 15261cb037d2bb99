import type fc from "fast-check";
import type { Harness } from "../Harness.js";
import { applyAndCheck } from "./ApplyModel.js";
import type { Model } from "./Model.js";

/** build_apply, with operation_cancel arriving while slice `atSlice` is being written. */
export class CancelDuringApplyCommand implements fc.AsyncCommand<Model, Harness> {
  constructor(
    readonly plan: number,
    readonly atSlice: number,
  ) {}

  check(m: Readonly<Model>): boolean {
    return m.plans.length > 0;
  }

  async run(m: Model, h: Harness): Promise<void> {
    await applyAndCheck(m, h, this.plan, { kind: "cancel", atSlice: this.atSlice });
  }

  toString(): string {
    return `apply+cancel(plan ${this.plan} at slice ${this.atSlice})`;
  }
}
