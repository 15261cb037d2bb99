import { blockIdOf, blockShapes, formatState, stairShape, type BlockRegistry, type BlockShapes, type FaceRect } from "@mcb/blocks";

/**
 * The game's connection rules for fences, panes and bars, walls and stairs (FenceBlock,
 * IronBarsBlock, WallBlock, StairBlock): which neighbours they join, wall heights and posts, stair
 * corners. Pure functions of the states around a position, looked up through `At`.
 */

export type Dir = "north" | "east" | "south" | "west";
export const DIRS: readonly Dir[] = ["north", "east", "south", "west"];
export const STEP: Readonly<Record<Dir, readonly [number, number]>> = { north: [0, -1], east: [1, 0], south: [0, 1], west: [-1, 0] };
const OPPOSITE: Readonly<Record<Dir, Dir>> = { north: "south", south: "north", east: "west", west: "east" };
const CCW: Readonly<Record<Dir, Dir>> = { north: "west", west: "south", south: "east", east: "north" };
const axisOf = (d: string): "x" | "z" => (d === "east" || d === "west" ? "x" : "z");

/** A block that takes its connections from its neighbours. */
export type Connectable = "fence" | "nether_fence" | "pane" | "wall" | "stairs";

/** The state at a position (undefined: not known, read as air). */
export type At = (x: number, y: number, z: number) => string | undefined;

/** FenceBlock/IronBarsBlock/WallBlock `isExceptionForConnection`: full blocks they never join. */
function isException(id: string): boolean {
  return (
    id.endsWith("_leaves") ||
    id.endsWith("shulker_box") ||
    ["minecraft:barrier", "minecraft:carved_pumpkin", "minecraft:jack_o_lantern", "minecraft:melon", "minecraft:pumpkin"].includes(id)
  );
}

/** Blocks on a wall that keep its post (tag wall_post_override, approximated by id). */
function isPostOverride(id: string): boolean {
  return (
    (id.endsWith("torch") && !id.endsWith("wall_torch")) ||
    id.endsWith("_sign") ||
    id.endsWith("_banner") ||
    id.endsWith("_pressure_plate") ||
    id === "minecraft:tripwire"
  );
}

/** Faces of the block above a wall tested for a tall side or a post (WallBlock's *_TEST shapes), in sixteenths of (x, z). */
const WALL_TEST: Readonly<Record<Dir | "post", FaceRect>> = {
  north: [7, 0, 9, 9],
  east: [7, 7, 16, 9],
  south: [7, 7, 9, 16],
  west: [0, 7, 9, 9],
  post: [7, 7, 9, 9],
};

export class ConnectionRules {
  private readonly shapes: BlockShapes;
  private readonly kinds = new Map<string, Connectable | "gate" | null>();
  private readonly props = (state: string): Map<string, string> => new Map(Object.entries(this.registry.stateOf(state).properties));

  constructor(private readonly registry: BlockRegistry) {
    this.shapes = blockShapes(registry);
  }

  /** Cached by state string: called for every block of a plan. */
  kind(state: string | undefined): Connectable | "gate" | null {
    if (state === undefined) return null;
    let k = this.kinds.get(state);
    if (k === undefined) {
      const id = blockIdOf(state);
      const names = new Set(this.registry.blockTypes.get(id)?.properties.map((p) => p.name) ?? []);
      const sides = DIRS.every((d) => names.has(d));
      if (id === "minecraft:nether_brick_fence") k = "nether_fence";
      else if (id.endsWith("_fence") && sides) k = "fence";
      else if ((id.endsWith("glass_pane") || id.endsWith("_bars")) && sides) k = "pane";
      else if (id.endsWith("_wall") && sides && names.has("up")) k = "wall";
      else if (id.endsWith("_stairs") && names.has("shape")) k = "stairs";
      else if (id.endsWith("_fence_gate")) k = "gate";
      else k = null;
      this.kinds.set(state, k);
    }
    return k;
  }

  private sturdy(state: string | undefined, face: Dir): boolean {
    return state !== undefined && !isException(blockIdOf(state)) && this.shapes.covers(state, face);
  }

  /** Whether a `kind` block joins `nb`, the neighbour towards `dir`. */
  joins(kind: Connectable, nb: string | undefined, dir: Dir): boolean {
    const k = this.kind(nb);
    const gateInLine = k === "gate" && axisOf(this.props(nb!).get("facing") ?? "") === axisOf(CCW[dir]);
    switch (kind) {
      case "fence":
      case "nether_fence":
        return k === kind || gateInLine || this.sturdy(nb, OPPOSITE[dir]);
      case "pane":
        return k === "pane" || k === "wall" || this.sturdy(nb, OPPOSITE[dir]);
      case "wall":
        return k === "wall" || k === "pane" || gateInLine || this.sturdy(nb, OPPOSITE[dir]);
      case "stairs":
        return false;
    }
  }

  /**
   * The connection properties of the connectable `state` at (x, y, z). `only`: recompute just these
   * sides (a neighbour update), keep the others as they are.
   */
  connect(state: string, x: number, y: number, z: number, at: At, only?: ReadonlySet<Dir>): string {
    const kind = this.kind(state);
    if (kind === null || kind === "gate") return state;
    const p = this.props(state);
    if (kind === "stairs") {
      if (only !== undefined && only.size === 0) return state;
      p.set("shape", this.stairShape(p, x, y, z, at));
    } else if (kind === "wall") {
      // Heights come from the bottom face of the block above (a wall above: its own arms and post).
      const above = at(x, y + 1, z);
      for (const d of DIRS) {
        const connected = only !== undefined && !only.has(d) ? p.get(d) !== "none" : this.joins(kind, at(x + STEP[d][0], y, z + STEP[d][1]), d);
        const tall = above !== undefined && this.shapes.covers(above, "down", WALL_TEST[d]);
        p.set(d, connected ? (tall ? "tall" : "low") : "none");
      }
      p.set("up", String(this.raisePost(p, above)));
    } else {
      for (const d of DIRS) if (only === undefined || only.has(d)) p.set(d, String(this.joins(kind, at(x + STEP[d][0], y, z + STEP[d][1]), d)));
    }
    return formatState(blockIdOf(state), Object.fromEntries(p));
  }

  /** WallBlock.shouldRaisePost. */
  private raisePost(p: Map<string, string>, above: string | undefined): boolean {
    if (above !== undefined && this.kind(above) === "wall" && this.props(above).get("up") === "true") return true;
    const none = (d: Dir) => p.get(d) === "none";
    if (DIRS.every(none) || none("north") !== none("south") || none("west") !== none("east")) return true;
    if ((p.get("north") === "tall" && p.get("south") === "tall") || (p.get("east") === "tall" && p.get("west") === "tall")) return false;
    return above !== undefined && (isPostOverride(blockIdOf(above)) || this.shapes.covers(above, "down", WALL_TEST.post));
  }

  /** StairBlock.getStairsShape (see `stairShape`). */
  private stairShape(p: Map<string, string>, x: number, y: number, z: number, at: At): string {
    return stairShape(p.get("facing") as Dir, p.get("half") ?? "bottom", (d) => {
      const s = at(x + STEP[d][0], y, z + STEP[d][1]);
      if (this.kind(s) !== "stairs") return null;
      const q = this.props(s!);
      return { facing: q.get("facing") as Dir, half: q.get("half") ?? "bottom" };
    });
  }

  /** True for a fence, pane or wall with no side joined (a lone post). */
  isLonePost(state: string): boolean {
    const k = this.kind(state);
    if (k === null || k === "gate" || k === "stairs") return false;
    const p = this.props(state);
    return DIRS.every((d) => p.get(d) === "false" || p.get(d) === "none");
  }
}
