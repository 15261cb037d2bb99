/**
 * The game's stair corner rule (StairBlock.getStairsShape): a stair joins the stair in front of
 * it (towards its facing) into an outer corner, or the stair behind it into an inner corner, when
 * that stair has the same half and a perpendicular facing and the side it would turn towards is
 * not a stair of the same facing and half. Used by the roof geometry and by the connection rules.
 */
export type StairFacing = "north" | "east" | "south" | "west";
export type StairShape = "straight" | "outer_left" | "outer_right" | "inner_left" | "inner_right";

/** A neighbouring stair as the rule sees it (null: not a stair). */
export interface StairNeighbour {
  readonly facing: StairFacing;
  readonly half: string;
}

const OPPOSITE: Readonly<Record<StairFacing, StairFacing>> = { north: "south", south: "north", east: "west", west: "east" };
const CCW: Readonly<Record<StairFacing, StairFacing>> = { north: "west", west: "south", south: "east", east: "north" };
const axis = (d: StairFacing): "x" | "z" => (d === "east" || d === "west" ? "x" : "z");

/** The shape of a stair facing `facing` with half `half`, given the stairs on its four sides. */
export function stairShape(facing: StairFacing, half: string, side: (d: StairFacing) => StairNeighbour | null): StairShape {
  const sameHalf = (d: StairFacing): StairNeighbour | null => {
    const s = side(d);
    return s !== null && s.half === half ? s : null;
  };
  const canTakeShape = (d: StairFacing): boolean => {
    const s = side(d);
    return s === null || s.facing !== facing || s.half !== half;
  };
  const front = sameHalf(facing);
  if (front !== null && axis(front.facing) !== axis(facing) && canTakeShape(OPPOSITE[front.facing]))
    return front.facing === CCW[facing] ? "outer_left" : "outer_right";
  const back = sameHalf(OPPOSITE[facing]);
  if (back !== null && axis(back.facing) !== axis(facing) && canTakeShape(back.facing)) return back.facing === CCW[facing] ? "inner_left" : "inner_right";
  return "straight";
}
