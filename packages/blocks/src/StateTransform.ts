import type { BlockRegistry, BlockState } from "./BlockRegistry.js";
import { formatState } from "./BlockStateSyntax.js";

/** Clockwise quarter turns seen from above (+y looking down): north → east → south → west. */
export type QuarterTurns = 0 | 1 | 2 | 3;
/** `x` negates x (east ↔ west); `z` negates z (north ↔ south). */
export type MirrorAxis = "x" | "z";

const HORIZONTAL = ["north", "east", "south", "west"] as const;
type Horizontal = (typeof HORIZONTAL)[number];

function isHorizontal(value: string): value is Horizontal {
  return (HORIZONTAL as readonly string[]).includes(value);
}

function turnDirection(value: string, turns: QuarterTurns): string {
  if (!isHorizontal(value)) return value;
  return HORIZONTAL[(HORIZONTAL.indexOf(value) + turns) % 4]!;
}

function mirrorDirection(value: string, axis: MirrorAxis): string {
  if (axis === "x") return value === "east" ? "west" : value === "west" ? "east" : value;
  return value === "north" ? "south" : value === "south" ? "north" : value;
}

const SWAP_LEFT_RIGHT: Readonly<Record<string, string>> = {
  left: "right",
  right: "left",
  inner_left: "inner_right",
  inner_right: "inner_left",
  outer_left: "outer_right",
  outer_right: "outer_left",
};

/** Rail curve names: the game spells each unordered pair of directions one way only. */
const RAIL_CURVES = ["north_south", "east_west", "south_east", "south_west", "north_west", "north_east"] as const;

function mapRailShape(shape: string, map: (d: string) => string): string {
  if (shape.startsWith("ascending_")) return `ascending_${map(shape.slice("ascending_".length))}`;
  const parts = shape.split("_");
  if (parts.length !== 2 || !parts.every(isHorizontal)) return shape;
  const mapped = new Set(parts.map(map));
  return RAIL_CURVES.find((c) => c.split("_").every((d) => mapped.has(d))) ?? shape;
}

function isRailShape(value: string): boolean {
  return value.startsWith("ascending_") || (RAIL_CURVES as readonly string[]).includes(value);
}

/** Maps the two directions of a jigsaw/crafter `orientation` such as `down_east` or `west_up`. */
function mapOrientation(value: string, map: (d: string) => string): string {
  return value.split("_").map(map).join("_");
}

type DirectionMap = (direction: string) => string;

function mapAxis(value: string, map: DirectionMap): string {
  if (value === "y") return value;
  const d = map(value === "x" ? "east" : "south");
  return d === "east" || d === "west" ? "x" : "z";
}

/**
 * Applies a horizontal direction map to every orientation-bearing property. `reflect` is true for
 * mirrors: handedness (stair corners, door hinges, chest halves, shelf chains) flips with them.
 * `rotation` (0–15, 0 = south, clockwise) is handled by the caller because it is not a direction name.
 */
function mapProperties(
  properties: Readonly<Record<string, string>>,
  map: DirectionMap,
  reflect: boolean,
  rotation16: (r: number) => number,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(properties)) {
    if (isHorizontal(key)) {
      out[map(key)] = value;
      continue;
    }
    switch (key) {
      case "facing":
        out[key] = map(value);
        break;
      case "axis":
        out[key] = mapAxis(value, map);
        break;
      case "rotation":
        out[key] = String(rotation16(Number(value)));
        break;
      case "orientation":
        out[key] = mapOrientation(value, map);
        break;
      case "shape":
        out[key] = isRailShape(value) ? mapRailShape(value, map) : reflect ? (SWAP_LEFT_RIGHT[value] ?? value) : value;
        break;
      case "hinge":
      case "type":
      case "side_chain":
        out[key] = reflect ? (SWAP_LEFT_RIGHT[value] ?? value) : value;
        break;
      default:
        out[key] = value;
    }
  }
  return out;
}

function finish(registry: BlockRegistry, state: BlockState, properties: Record<string, string>): BlockState {
  // Every vanilla domain is closed under these maps; a miss is a broken invariant, not bad input.
  return registry.stateOf(formatState(state.id, properties));
}

/** Rotates a state clockwise (seen from above) by `turns` quarter turns. */
export function rotateState(registry: BlockRegistry, state: BlockState, turns: QuarterTurns): BlockState {
  if (turns === 0) return state;
  const properties = mapProperties(
    state.properties,
    (d) => turnDirection(d, turns),
    false,
    (r) => (r + 4 * turns) % 16,
  );
  return finish(registry, state, properties);
}

/** Mirrors a state across the plane perpendicular to `axis`. */
export function mirrorState(registry: BlockRegistry, state: BlockState, axis: MirrorAxis): BlockState {
  const rotation16 = axis === "x" ? (r: number) => (16 - r) % 16 : (r: number) => (24 - r) % 16;
  const properties = mapProperties(state.properties, (d) => mirrorDirection(d, axis), true, rotation16);
  return finish(registry, state, properties);
}
