import type fc from "fast-check";
import type { Harness } from "../Harness.js";
import { applyAndCheck } from "./ApplyModel.js";
import type { Model } from "./Model.js";

/** build_apply of a prepared plan, run to completion; `duplicates` more concurrent calls under other keys. */
export class ApplyCommand implements fc.AsyncCommand<Model, Harness> {
  constructor(
    readonly plan: number,
    readonly duplicates = 0,
  ) {}

  check(m: Readonly<Model>): boolean {
    return m.plans.length > 0;
  }

  async run(m: Model, h: Harness): Promise<void> {
    await applyAndCheck(m, h, this.plan, { kind: "none" }, this.duplicates);
  }

  toString(): string {
    return `apply(plan ${this.plan}${this.duplicates > 0 ? ` ×${1 + this.duplicates} concurrently` : ""})`;
  }
}
