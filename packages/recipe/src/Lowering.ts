import { type BlockRegistry, type Box3, mcbError, type McbError } from "@mcb/blocks";
import {
  IDENTITY,
  composeFrame,
  mapPoint,
  orientationOf,
  transformFrame,
  translation,
  type Frame,
  type Orientation,
} from "./Frame.js";
import { MAX_HORIZONTAL, MAX_Y, MIN_Y, type CompileLimits } from "./Limits.js";
import { fnv1a, type Material } from "./Material.js";
import type { BlockRef, BlocksOp, Operation, Recipe, RoofOp, Vec3 } from "./RecipeSchema.js";
import { StateLimitReached, StateTable } from "./StateTable.js";
import { archShape } from "./shapes/ArchShape.js";
import { boxMode, boxShape, type BoxMode } from "./shapes/BoxShape.js";
import { excludeShape } from "./shapes/ExcludeShape.js";
import { pointsShape } from "./shapes/PointsShape.js";
import { roofCells, type RoofPiece, type RoofRect } from "./shapes/RoofShape.js";
import { cylinderShape } from "./shapes/CylinderShape.js";
import { lineShape } from "./shapes/LineShape.js";
import type { Shape } from "./shapes/Shape.js";

/** A recipe path (operations[2].block…), built only when an error needs it. */
type Path = () => string;

/** Largest arch plane (span × rise) examined while counting. */
export const MAX_ARCH_PLANE = 4_194_304;

/** One primitive instance, ready to emit: local shape, frame to world, material, filter index (0 = none). */
export interface Leaf {
  readonly shape: Shape;
  readonly frame: Frame;
  readonly material: Material;
  readonly filter: number;
  /**
   * For box primitives: the world box (a D4 frame maps boxes, and their face sets, onto boxes),
   * so the compiler can fill rows instead of emitting single positions.
   */
  readonly worldBox?: { readonly box: Box3; readonly mode: BoxMode };
}

export interface Lowered {
  readonly leaves: readonly Leaf[];
  readonly emitted: number;
  readonly bounds: Box3 | null;
  readonly states: StateTable;
  /** Filter keys in index order (index = position + 1). */
  readonly filters: ReadonlyArray<{ readonly ids: readonly string[]; readonly states: readonly string[] }>;
}

/** Internal control flow: carries a structured error out of the recursive walk. */
class LoweringFailure extends Error {
  constructor(readonly error: McbError) {
    super(error.message);
  }
}

function budget(message: string, details: Record<string, unknown>): LoweringFailure {
  return new LoweringFailure(mcbError("budget_exceeded", message, { stage: "preflight", ...details }));
}

interface PaletteDef {
  readonly salt: number;
  readonly choices: ReadonlyArray<{ readonly state: number; readonly weight: number }>;
}

function worldBounds(frame: Frame, b: Box3): Box3 {
  const [ax, ay, az] = mapPoint(frame, b.minX, b.minY, b.minZ);
  const [bx, by, bz] = mapPoint(frame, b.maxX, b.maxY, b.maxZ);
  return {
    minX: Math.min(ax, bx),
    minY: Math.min(ay, by),
    minZ: Math.min(az, bz),
    maxX: Math.max(ax, bx),
    maxY: Math.max(ay, by),
    maxZ: Math.max(az, bz),
  };
}

function union(a: Box3 | null, b: Box3): Box3 {
  if (a === null) return b;
  return {
    minX: Math.min(a.minX, b.minX),
    minY: Math.min(a.minY, b.minY),
    minZ: Math.min(a.minZ, b.minZ),
    maxX: Math.max(a.maxX, b.maxX),
    maxY: Math.max(a.maxY, b.maxY),
    maxZ: Math.max(a.maxZ, b.maxZ),
  };
}

/**
 * Resolves states and walks the recipe without emitting any position: counts operation instances,
 * exact per-primitive block counts and world bounds, and rejects a recipe over a limit before the
 * compiler allocates anything proportional to its size.
 */
export function lowerRecipe(registry: BlockRegistry, recipe: Recipe, limits: CompileLimits, seed: number): { ok: true; value: Lowered } | { ok: false; error: McbError } {
  const states = new StateTable(registry, limits.maxStates);
  const leaves: Leaf[] = [];
  const filterIndex = new Map<string, number>();
  const filters: Array<{ ids: string[]; states: string[] }> = [];
  const palettes = new Map<string, PaletteDef>();
  const paletteMaterials = new Map<string, Material>();
  let emitted = 0;
  let instances = 0;
  let bounds: Box3 | null = null;

  // Paths are built only for an error message (a repeat walks its operations once per copy).
  // Unknown block ids are all collected (the walk goes on with air in their place), then refused together.
  const unknown = new Map<string, { id: string; path: string; suggestions: unknown; message: string }>();
  const resolve = (text: string, path: Path): number => {
    const r = registry.resolveState(text);
    if (!r.ok && r.error.details?.reason === "unknown_block" && typeof r.error.details.id === "string") {
      if (!unknown.has(r.error.details.id)) unknown.set(r.error.details.id, { id: r.error.details.id, path: path(), suggestions: r.error.details.suggestions ?? [], message: r.error.message });
      return states.add("minecraft:air");
    }
    if (!r.ok) throw new LoweringFailure({ ...r.error, details: { ...r.error.details, path: path() } });
    return states.add(r.value.canonical);
  };

  const material = (ref: BlockRef, o: Orientation, path: Path): Material => {
    if (typeof ref === "string") return { kind: "state", value: states.orient(resolve(ref, path), o) + 1 };
    const def = palettes.get(ref.palette);
    if (def === undefined) {
      throw new LoweringFailure(mcbError("invalid_request", `unknown palette "${ref.palette}"`, { reason: "unknown_palette", path: path() }));
    }
    const key = `${ref.palette}|${o.mirrorX ? 1 : 0}${o.turns}`;
    const hit = paletteMaterials.get(key);
    if (hit !== undefined) return hit;
    let total = 0;
    const m: Material = {
      kind: "palette",
      values: Uint32Array.from(def.choices, (c) => states.orient(c.state, o) + 1),
      cumulative: Uint32Array.from(def.choices, (c) => (total += c.weight)),
      salt: def.salt,
    };
    paletteMaterials.set(key, m);
    return m;
  };

  const filterFor = (from: readonly string[], o: Orientation, path: Path): number => {
    const ids = new Set<string>();
    const exact = new Set<string>();
    from.forEach((entry, i) => {
      if (!entry.includes("[")) {
        const r = registry.resolveState(entry);
        if (!r.ok) throw new LoweringFailure({ ...r.error, details: { ...r.error.details, path: `${path()}[${i}]` } });
        ids.add(r.value.id);
      } else {
        exact.add(states.states[states.orient(resolve(entry, () => `${path()}[${i}]`), o)]!);
      }
    });
    const key = { ids: [...ids].sort(), states: [...exact].sort() };
    const text = JSON.stringify(key);
    let index = filterIndex.get(text);
    if (index === undefined) {
      filters.push(key);
      index = filters.length;
      if (index > 0xffff) throw budget("too many distinct source filters", { limit: 0xffff });
      filterIndex.set(text, index);
    }
    return index;
  };

  // A repeat's copies share their operations' local shapes and materials (per orientation).
  const shapes = new Map<Operation, Shape>();
  const shapeOf = (op: Operation, make: () => Shape): Shape => {
    let shape = shapes.get(op);
    if (shape === undefined) shapes.set(op, (shape = make()));
    return shape;
  };
  // Listed blocks and roofs: their per-block shapes, made once per operation.
  const groups = new Map<Operation, unknown>();
  const groupsOf = <G>(op: Operation, make: () => G): G => {
    if (!groups.has(op)) groups.set(op, make());
    return groups.get(op) as G;
  };
  const opMaterials = new Map<Operation, (Material | undefined)[]>();
  const materialOf = (op: Operation, ref: BlockRef, o: Orientation, path: Path): Material => {
    let byOrientation = opMaterials.get(op);
    if (byOrientation === undefined) opMaterials.set(op, (byOrientation = []));
    const k = (o.mirrorX ? 4 : 0) + o.turns;
    return (byOrientation[k] ??= material(ref, o, path));
  };

  const addLeaf = (shape: Shape, frame: Frame, m: Material, filter: number, path: Path, box?: { mode: BoxMode }): void => {
    if (++instances > limits.maxOperations) {
      throw budget(`more than ${limits.maxOperations} operation instances after expanding repeats`, { limit: limits.maxOperations, path: path() });
    }
    const count = shape.count;
    if (count > limits.maxBlocks) {
      throw budget(`operation writes ${count} blocks; a plan may change at most ${limits.maxBlocks}`, {
        limit: limits.maxBlocks,
        requested: count,
        path: path(),
      });
    }
    emitted += count;
    if (emitted > limits.maxEmitted) {
      throw budget(`recipe emits more than ${limits.maxEmitted} positions`, { limit: limits.maxEmitted, path: path() });
    }
    const wb = worldBounds(frame, shape.bounds);
    if (wb.minX < -MAX_HORIZONTAL || wb.maxX > MAX_HORIZONTAL || wb.minZ < -MAX_HORIZONTAL || wb.maxZ > MAX_HORIZONTAL || wb.minY < MIN_Y || wb.maxY > MAX_Y) {
      throw new LoweringFailure(
        mcbError("out_of_bounds", "operation reaches outside the largest possible world", {
          path: path(),
          bounds: { min: { x: wb.minX, y: wb.minY, z: wb.minZ }, max: { x: wb.maxX, y: wb.maxY, z: wb.maxZ } },
        }),
      );
    }
    bounds = union(bounds, wb);
    leaves.push(box === undefined ? { shape, frame, material: m, filter } : { shape, frame, material: m, filter, worldBox: { box: wb, mode: box.mode } });
  };

  // A shape less its exclude boxes; the base is counted first so an oversize base is refused unscanned.
  const without = (shape: Shape, exclude: readonly { min: Vec3; max: Vec3 }[] | undefined, path: Path): Shape => {
    if (exclude === undefined) return shape;
    if (shape.count > limits.maxEmitted) throw budget(`operation covers more than ${limits.maxEmitted} positions before its exclusions`, { limit: limits.maxEmitted, path: path() });
    return excludeShape(shape, exclude.map((b) => boxShape(b.min, b.max, "solid").box));
  };

  // Listed blocks, one leaf per distinct block (in order of first appearance); a position listed twice is refused.
  const listedGroups = (op: BlocksOp, path: Path): Array<{ shape: Shape; ref: BlockRef; first: number }> => {
    const seen = new Set<string>();
    const groups = new Map<string, { xyz: number[]; ref: BlockRef; first: number }>();
    op.blocks.forEach((b, i) => {
      const at = `${b.x},${b.y},${b.z}`;
      if (seen.has(at)) throw new LoweringFailure(mcbError("invalid_request", `position ${at} is listed twice`, { reason: "duplicate_position", path: `${path()}.blocks[${i}]` }));
      seen.add(at);
      const key = JSON.stringify(b.block);
      let g = groups.get(key);
      if (g === undefined) groups.set(key, (g = { xyz: [], ref: b.block, first: i }));
      g.xyz.push(b.x, b.y, b.z);
    });
    return [...groups.values()].map((g) => ({ shape: pointsShape(Int32Array.from(g.xyz)), ref: g.ref, first: g.first }));
  };

  const roofGroups = (op: RoofOp, path: Path): Array<{ shape: Shape; piece: RoofPiece; ref?: BlockRef }> => {
    const o = op.overhang ?? 1;
    const rects = roofRects(op, path);
    const minX = Math.min(...rects.map((q) => q.minX)), maxX = Math.max(...rects.map((q) => q.maxX));
    const minZ = Math.min(...rects.map((q) => q.minZ)), maxZ = Math.max(...rects.map((q) => q.maxZ));
    const cells = (maxX - minX + 1 + 2 * o) * (maxZ - minZ + 1 + 2 * o);
    if (cells > limits.maxBlocks) throw budget(`roof covers ${cells} columns; a plan may change at most ${limits.maxBlocks} blocks`, { limit: limits.maxBlocks, requested: cells, path: path() });
    if (op.style !== "flat" && op.stairs === undefined) throw new LoweringFailure(mcbError("invalid_request", `a ${op.style} roof needs stairs`, { reason: "roof_block", path: `${path()}.stairs` }));
    const groups = roofCells({ rects, y: op.y, style: op.style, pitch: op.pitch ?? 1, overhang: o, gable: op.gable_block !== undefined });
    return [...groups.values()].map((g) => ({ shape: pointsShape(Int32Array.from(g.xyz)), piece: g.piece, ...(g.piece.kind === "gable" ? { ref: op.gable_block! } : {}) }));
  };

  /** The roof's rectangles: min/max, or the footprint's; each ridge along the roof's axis, or else its own longer side. */
  const roofRects = (op: RoofOp, path: Path): RoofRect[] => {
    const given = op.footprint ?? (op.min !== undefined && op.max !== undefined ? [{ min: op.min, max: op.max }] : null);
    if (given === null || (op.footprint !== undefined && (op.min !== undefined || op.max !== undefined)))
      throw new LoweringFailure(mcbError("invalid_request", "a roof needs min and max (one rectangle) or footprint (rectangles), not both", { reason: "roof_footprint", path: path() }));
    return given.map((q) => {
      const minX = Math.min(q.min.x, q.max.x), maxX = Math.max(q.min.x, q.max.x), minZ = Math.min(q.min.z, q.max.z), maxZ = Math.max(q.min.z, q.max.z);
      return { minX, maxX, minZ, maxZ, axis: op.axis ?? (maxX - minX >= maxZ - minZ ? "x" : "z") };
    });
  };

  // The state of a roof piece: the given stairs or slab block with the piece's properties.
  const pieceState = (op: RoofOp, piece: RoofPiece, path: Path): string => {
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
  };

  const walk = (ops: readonly Operation[], frame: Frame, depth: number, path: Path): void => {
    if (depth > limits.maxDepth) throw budget(`repeat/transform nesting deeper than ${limits.maxDepth}`, { limit: limits.maxDepth, path: path() });
    ops.forEach((op, i) => {
      const p = (): string => `${path()}[${i}]`;
      const block = (): string => `${p()}.block`;
      const o = frame.orientation;
      switch (op.type) {
        case "box": {
          const mode = boxMode(op.hollow);
          const shape = shapeOf(op, () => without(boxShape(op.min, op.max, mode), op.exclude, p));
          addLeaf(shape, frame, materialOf(op, op.block, o, block), 0, p, op.exclude === undefined ? { mode } : undefined);
          break;
        }
        case "replace": {
          const shape = shapeOf(op, () => without(boxShape(op.min, op.max, "solid"), op.exclude, p));
          addLeaf(shape, frame, materialOf(op, op.block, o, block), filterFor(op.from, o, () => `${p()}.from`), p, op.exclude === undefined ? { mode: "solid" } : undefined);
          break;
        }
        case "line":
          addLeaf(shapeOf(op, () => lineShape(op.from, op.to)), frame, materialOf(op, op.block, o, block), 0, p);
          break;
        case "cylinder":
          addLeaf(shapeOf(op, () => without(cylinderShape(op.center, op.radius, op.height, op.hollow === true, op.axis ?? "y"), op.exclude, p)), frame, materialOf(op, op.block, o, block), 0, p);
          break;
        case "blocks":
          for (const g of groupsOf(op, () => listedGroups(op, p))) addLeaf(g.shape, frame, material(g.ref, o, () => `${p()}.blocks[${g.first}].block`), 0, p);
          break;
        case "roof":
          for (const g of groupsOf(op, () => roofGroups(op, p))) addLeaf(g.shape, frame, g.ref === undefined ? material(pieceState(op, g.piece, p), o, p) : material(g.ref, o, () => `${p()}.gable_block`), 0, p);
          break;
        case "arch": {
          const shape = shapeOf(op, () => {
            const arch = archShape(op.min, op.max, op.axis, op.thickness ?? 1);
            if (arch.planeArea > MAX_ARCH_PLANE) throw budget(`arch plane larger than ${MAX_ARCH_PLANE} cells`, { limit: MAX_ARCH_PLANE, path: p() });
            return arch;
          });
          addLeaf(shape, frame, materialOf(op, op.block, o, block), 0, p);
          break;
        }
        case "repeat": {
          const projected = instances + op.count;
          if (projected > limits.maxOperations) {
            throw budget(`more than ${limits.maxOperations} operation instances after expanding repeats`, { limit: limits.maxOperations, path: p() });
          }
          for (let k = 0; k < op.count; k++) {
            const child = composeFrame(frame, translation(op.offset.x * k, op.offset.y * k, op.offset.z * k));
            walk(op.operations, child, depth + 1, () => `${p()}.operations`);
          }
          break;
        }
        case "transform": {
          const local = transformFrame(orientationOf(op.rotate ?? 0, op.mirror), op.anchor ?? { x: 0, y: 0, z: 0 }, op.translate ?? { x: 0, y: 0, z: 0 });
          walk(op.operations, composeFrame(frame, local), depth + 1, () => `${p()}.operations`);
          break;
        }
      }
    });
  };

  const written = countOperations(recipe.operations);
  if (written > limits.maxRecipeOperations) {
    return {
      ok: false,
      error: mcbError("budget_exceeded", `recipe has ${written} operations; the limit is ${limits.maxRecipeOperations}`, {
        stage: "preflight",
        limit: limits.maxRecipeOperations,
        requested: written,
      }),
    };
  }
  try {
    for (const [name, palette] of Object.entries(recipe.palettes ?? {}).sort(([a], [b]) => (a < b ? -1 : 1))) {
      palettes.set(name, {
        salt: fnv1a(name) ^ (palette.seed ?? seed),
        choices: palette.choices.map((c, i) => ({ state: resolve(c.block, () => `palettes.${name}.choices[${i}].block`), weight: c.weight })),
      });
    }
    walk(recipe.operations, IDENTITY, 0, () => "operations");
    if (unknown.size > 0) throw new LoweringFailure(unknownBlocks([...unknown.values()]));
  } catch (e) {
    if (e instanceof LoweringFailure) return { ok: false, error: unknown.size > 0 && e.error.details?.reason !== "unknown_block" ? unknownBlocks([...unknown.values()]) : e.error };
    if (e instanceof StateLimitReached) {
      return { ok: false, error: mcbError("budget_exceeded", `more than ${limits.maxStates} distinct block states`, { stage: "preflight", limit: limits.maxStates }) };
    }
    throw e;
  }
  return { ok: true, value: { leaves, emitted, bounds, states, filters } };
}

/** At most this many unknown ids named in one refusal (the count is exact). */
const MAX_UNKNOWN_REPORTED = 16;

/**
 * Every unknown block id of a recipe in one refusal, each with its first path and suggestions; the
 * first one's id, suggestions and path stay at the top of `details` as a single refusal has them.
 */
function unknownBlocks(list: readonly { id: string; path: string; suggestions: unknown; message: string }[]): McbError {
  const first = list[0]!;
  const message = list.length === 1 ? first.message : `${list.length} unknown block ids: ${list.slice(0, MAX_UNKNOWN_REPORTED).map((u) => u.message.replace(/^unknown block /, "")).join("; ")}`;
  return mcbError("unsupported_block", message, {
    reason: "unknown_block",
    id: first.id,
    suggestions: first.suggestions,
    path: first.path,
    count: list.length,
    unknown: list.slice(0, MAX_UNKNOWN_REPORTED).map((u) => ({ id: u.id, path: u.path, suggestions: u.suggestions })),
  });
}

/** Operation objects as written, nested ones included (repeat counts are not multiplied in). */
function countOperations(ops: readonly Operation[]): number {
  let n = 0;
  for (const op of ops) n += 1 + (op.type === "repeat" || op.type === "transform" ? countOperations(op.operations) : 0);
  return n;
}
