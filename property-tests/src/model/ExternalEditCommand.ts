import type fc from "fast-check";
import type { Harness } from "../Harness.js";
import { ARENA, key, type Model } from "./Model.js";

/** A player (event) or an unobserved plugin (no event) changes one block. */
export class ExternalEditCommand implements fc.AsyncCommand<Model, Harness> {
  constructor(
    readonly at: number,
    readonly state: string,
    readonly withEvent: boolean,
  ) {}

  check(): boolean {
    return true;
  }

  async run(m: Model, h: Harness): Promise<void> {
    const p = ARENA[this.at % ARENA.length]!;
    h.world.externalEdit(p.x, p.y, p.z, this.state, { emitEvent: this.withEvent });
    m.world.set(key(p), this.state);
    m.hand.set(key(p), this.state);
    if (this.withEvent) m.unsynced.push({ key: key(p), state: this.state });
  }

  toString(): string {
    return `edit(${this.at} ${this.state}${this.withEvent ? "" : " silently"})`;
  }
}
