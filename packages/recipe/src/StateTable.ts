import { mirrorState, rotateState, type BlockRegistry } from "@mcb/blocks";
import type { Orientation } from "./Frame.js";

/** Thrown inside lowering when the distinct-state limit is hit; converted to budget_exceeded. */
export class StateLimitReached extends Error {}

/** Interns canonical states and caches their oriented variants (mirror x first, then clockwise turns). */
export class StateTable {
  readonly states: string[] = [];
  private readonly index = new Map<string, number>();
  private readonly oriented = new Map<string, number>();

  constructor(
    private readonly registry: BlockRegistry,
    private readonly maxStates: number,
  ) {}

  add(canonical: string): number {
    const hit = this.index.get(canonical);
    if (hit !== undefined) return hit;
    if (this.states.length >= this.maxStates) throw new StateLimitReached();
    this.index.set(canonical, this.states.length);
    this.states.push(canonical);
    return this.states.length - 1;
  }

  orient(stateIndex: number, o: Orientation): number {
    if (!o.mirrorX && o.turns === 0) return stateIndex;
    const canonical = this.states[stateIndex]!;
    const key = `${o.mirrorX ? 1 : 0}${o.turns}${canonical}`;
    const hit = this.oriented.get(key);
    if (hit !== undefined) return hit;
    const state = this.registry.stateOf(canonical);
    const turned = rotateState(this.registry, o.mirrorX ? mirrorState(this.registry, state, "x") : state, o.turns);
    const index = this.add(turned.canonical);
    this.oriented.set(key, index);
    return index;
  }
}
