import { mcbError, type BlockRegistry } from "@mcb/blocks";
import type { CompileLimits } from "./Limits.js";
import { LoweringFailure, budget, type Path } from "./LoweringFailure.js";
import type { BlockRef, RoofOp } from "./RecipeSchema.js";
import { pointsShape } from "./shapes/PointsShape.js";
import { roofCells, type RoofPiece, type RoofRect } from "./shapes/RoofShape.js";
import type { Shape } from "./shapes/Shape.js";

/** A roof as lowered: one shape per piece (a stair of one facing and shape, a slab, a gable block). */
export function roofGroups(op: RoofOp, limits: CompileLimits, path: Path): Array<{ shape: Shape; piece: RoofPiece; ref?: BlockRef }> {
  const o = op.overhang ?? 1;
  const rects = roofRects(op, path);
  const minX = Math.min(...rects.map((q) => q.minX)),
    maxX = Math.max(...rects.map((q) => q.maxX));
  const minZ = Math.min(...rects.map((q) => q.minZ)),
    maxZ = Math.max(...rects.map((q) => q.maxZ));
  const cells = (maxX - minX + 1 + 2 * o) * (maxZ - minZ + 1 + 2 * o);
  if (cells > limits.maxBlocks)
    throw budget(`roof covers ${cells} columns; a plan may change at most ${limits.maxBlocks} blocks`, {
      limit: limits.maxBlocks,
      requested: cells,
      path: path(),
    });
  if (op.style !== "flat" && op.stairs === undefined)
    throw new LoweringFailure(mcbError("invalid_request", `a ${op.style} roof needs stairs`, { reason: "roof_block", path: `${path()}.stairs` }));
  const groups = roofCells({ rects, y: op.y, style: op.style, pitch: op.pitch ?? 1, overhang: o, gable: op.gable_block !== undefined });
  return [...groups.values()].map((g) => ({
    shape: pointsShape(Int32Array.from(g.xyz)),
    piece: g.piece,
    ...(g.piece.kind === "gable" ? { ref: op.gable_block! } : {}),
  }));
}

/** The roof's rectangles: min/max, or the footprint's; each ridge along the roof's axis, or else its own longer side. */
function roofRects(op: RoofOp, path: Path): RoofRect[] {
  const given = op.footprint ?? (op.min !== undefined && op.max !== undefined ? [{ min: op.min, max: op.max }] : null);
  if (given === null || (op.footprint !== undefined && (op.min !== undefined || op.max !== undefined)))
    throw new LoweringFailure(
      mcbError("invalid_request", "a roof needs min and max (one rectangle) or footprint (rectangles), not both", { reason: "roof_footprint", path: path() }),
    );
  return given.map((q) => {
    const minX = Math.min(q.min.x, q.max.x),
      maxX = Math.max(q.min.x, q.max.x),
      minZ = Math.min(q.min.z, q.max.z),
      maxZ = Math.max(q.min.z, q.max.z);
    return { minX, maxX, minZ, maxZ, axis: op.axis ?? (maxX - minX >= maxZ - minZ ? "x" : "z") };
  });
}

/** The state of a roof piece: the given stairs or slab block with the piece's properties. */
export function pieceState(registry: BlockRegistry, op: RoofOp, piece: RoofPiece, path: Path): string {
  const field = piece.kind === "stair" ? "stairs" : "slab";
  const text = piece.kind === "stair" ? op.stairs! : op.slab;
  const base = registry.resolveState(text);
  if (!base.ok) throw new LoweringFailure({ ...base.error, details: { ...base.error.details, path: `${path()}.${field}` } });
  const props = piece.kind === "stair" ? `facing=${piece.facing},half=bottom,shape=${piece.shape}` : `type=${piece.kind === "slab" ? piece.type : "bottom"}`;
  const state = `${base.value.id}[${props}]`;
  if (!registry.resolveState(state).ok) {
    const needs = piece.kind === "stair" ? "a stairs block (facing, half, shape)" : "a slab block (type)";
    throw new LoweringFailure(mcbError("invalid_request", `roof ${field} "${text}" is not ${needs}`, { reason: "roof_block", path: `${path()}.${field}` }));
  }
  return state;
}
