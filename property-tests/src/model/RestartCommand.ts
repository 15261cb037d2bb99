import type fc from "fast-check";
import type { Harness } from "../Harness.js";
import { assertWorld, type Model } from "./Model.js";

/** A clean process restart: the journal survives, events not yet pulled are lost. */
export class RestartCommand implements fc.AsyncCommand<Model, Harness> {
  check(): boolean {
    return true;
  }

  async run(m: Model, h: Harness): Promise<void> {
    await h.restart();
    m.unsynced.length = 0;
    assertWorld(m, h);
  }

  toString(): string {
    return "restart";
  }
}
