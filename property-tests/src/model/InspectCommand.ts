import { expandInspectedBlocks } from "@mcb/engine";
import type fc from "fast-check";
import { unwrap, type Harness } from "../Harness.js";
import { ARENA, expectEqual, key, type Model } from "./Model.js";

/** region_inspect of the whole arena must report exactly the model's blocks. */
export class InspectCommand implements fc.AsyncCommand<Model, Harness> {
  check(): boolean {
    return true;
  }

  async run(m: Model, h: Harness): Promise<void> {
    const r = unwrap(await h.engine.regionInspect(h.agent, { min: ARENA[0]!, max: ARENA[ARENA.length - 1]!, detail: "blocks" }));
    expectEqual(
      "inspected blocks",
      expandInspectedBlocks(r).map((b) => [key(b.pos), b.state]),
      ARENA.map((p) => [key(p), m.world.get(key(p))]),
    );
  }

  toString(): string {
    return "inspect";
  }
}
