import { type BlockRegistry, type Box3, boxFromCorners, boxUnion, mcbError, type McbError } from "@mcb/blocks";
import { IDENTITY, composeFrame, mapPoint, orientationOf, transformFrame, translation, type Frame, type Orientation } from "./Frame.js";
import { MAX_HORIZONTAL, MAX_Y, MIN_Y, type CompileLimits } from "./Limits.js";
import { fnv1a, type Material } from "./Material.js";
import { LoweringFailure, budget, unknownBlocks, type Path } from "./LoweringFailure.js";
import type { BlockRef, BlocksOp, Operation, Recipe, Vec3 } from "./RecipeSchema.js";
import { pieceState, roofGroups } from "./RoofLowering.js";
import { StateLimitReached, StateTable } from "./StateTable.js";
import { archShape } from "./shapes/ArchShape.js";
import { boxMode, boxShape, type BoxMode } from "./shapes/BoxShape.js";
import { excludeShape } from "./shapes/ExcludeShape.js";
import { pointsShape } from "./shapes/PointsShape.js";
import { cylinderShape } from "./shapes/CylinderShape.js";
import { lineShape } from "./shapes/LineShape.js";
import type { Shape } from "./shapes/Shape.js";

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

interface PaletteDef {
  readonly salt: number;
  readonly choices: ReadonlyArray<{ readonly state: number; readonly weight: number }>;
}

function worldBounds(frame: Frame, b: Box3): Box3 {
  const [ax, ay, az] = mapPoint(frame, b.minX, b.minY, b.minZ);
  const [bx, by, bz] = mapPoint(frame, b.maxX, b.maxY, b.maxZ);
  return boxFromCorners({ x: ax, y: ay, z: az }, { x: bx, y: by, z: bz });
}

/**
 * Resolves states and walks the recipe without emitting any position: counts operation instances,
 * exact per-primitive block counts and world bounds, and rejects a recipe over a limit before the
 * compiler allocates anything proportional to its size.
 */
export function lowerRecipe(
  registry: BlockRegistry,
  recipe: Recipe,
  limits: CompileLimits,
  seed: number,
): { ok: true; value: Lowered } | { ok: false; error: McbError } {
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
  const lowerer = new Lowerer(registry, limits);
  try {
    for (const [name, palette] of Object.entries(recipe.palettes ?? {}).sort(([a], [b]) => (a < b ? -1 : 1))) {
      lowerer.palettes.set(name, {
        salt: fnv1a(name) ^ (palette.seed ?? seed),
        choices: palette.choices.map((c, i) => ({ state: lowerer.resolve(c.block, () => `palettes.${name}.choices[${i}].block`), weight: c.weight })),
      });
    }
    lowerer.walk(recipe.operations, IDENTITY, 0, () => "operations");
    if (lowerer.unknown.size > 0) throw new LoweringFailure(unknownBlocks([...lowerer.unknown.values()]));
  } catch (e) {
    const unknown = lowerer.unknown;
    if (e instanceof LoweringFailure)
      return { ok: false, error: unknown.size > 0 && e.error.details?.reason !== "unknown_block" ? unknownBlocks([...unknown.values()]) : e.error };
    if (e instanceof StateLimitReached) {
      return {
        ok: false,
        error: mcbError("budget_exceeded", `more than ${limits.maxStates} distinct block states`, { stage: "preflight", limit: limits.maxStates }),
      };
    }
    throw e;
  }
  const { leaves, emitted, bounds, states, filters } = lowerer;
  return { ok: true, value: { leaves, emitted, bounds, states, filters } };
}

/** One lowering's state: the states, leaves and filters found so far, and the limits it checks. */
class Lowerer {
  readonly states: StateTable;
  readonly leaves: Leaf[] = [];
  readonly filters: Array<{ ids: string[]; states: string[] }> = [];
  readonly palettes = new Map<string, PaletteDef>();
  /** Unknown block ids are all collected (the walk goes on with air in their place), then refused together. */
  readonly unknown = new Map<string, { id: string; path: string; suggestions: unknown; message: string }>();
  emitted = 0;
  bounds: Box3 | null = null;
  private instances = 0;
  private readonly filterIndex = new Map<string, number>();
  private readonly paletteMaterials = new Map<string, Material>();
  /** A repeat's copies share their operations' local shapes and materials (per orientation). */
  private readonly shapes = new Map<Operation, Shape>();
  /** Listed blocks and roofs: their per-block shapes, made once per operation. */
  private readonly groups = new Map<Operation, unknown>();
  private readonly opMaterials = new Map<Operation, (Material | undefined)[]>();

  constructor(
    private readonly registry: BlockRegistry,
    private readonly limits: CompileLimits,
  ) {
    this.states = new StateTable(registry, limits.maxStates);
  }

  /** A state's number; an unknown block id is noted and stands as air meanwhile. Paths are built only for an error message. */
  resolve(text: string, path: Path): number {
    const r = this.registry.resolveState(text);
    if (!r.ok && r.error.details?.reason === "unknown_block" && typeof r.error.details.id === "string") {
      if (!this.unknown.has(r.error.details.id))
        this.unknown.set(r.error.details.id, {
          id: r.error.details.id,
          path: path(),
          suggestions: r.error.details.suggestions ?? [],
          message: r.error.message,
        });
      return this.states.add("minecraft:air");
    }
    if (!r.ok) throw new LoweringFailure({ ...r.error, details: { ...r.error.details, path: path() } });
    return this.states.add(r.value.canonical);
  }

  private material(ref: BlockRef, o: Orientation, path: Path): Material {
    if (typeof ref === "string") return { kind: "state", value: this.states.orient(this.resolve(ref, path), o) + 1 };
    const def = this.palettes.get(ref.palette);
    if (def === undefined) {
      throw new LoweringFailure(mcbError("invalid_request", `unknown palette "${ref.palette}"`, { reason: "unknown_palette", path: path() }));
    }
    const key = `${ref.palette}|${o.mirrorX ? 1 : 0}${o.turns}`;
    const hit = this.paletteMaterials.get(key);
    if (hit !== undefined) return hit;
    let total = 0;
    const m: Material = {
      kind: "palette",
      values: Uint32Array.from(def.choices, (c) => this.states.orient(c.state, o) + 1),
      cumulative: Uint32Array.from(def.choices, (c) => (total += c.weight)),
      salt: def.salt,
    };
    this.paletteMaterials.set(key, m);
    return m;
  }

  private filterFor(from: readonly string[], o: Orientation, path: Path): number {
    const ids = new Set<string>();
    const exact = new Set<string>();
    from.forEach((entry, i) => {
      if (!entry.includes("[")) {
        const r = this.registry.resolveState(entry);
        if (!r.ok) throw new LoweringFailure({ ...r.error, details: { ...r.error.details, path: `${path()}[${i}]` } });
        ids.add(r.value.id);
      } else {
        exact.add(
          this.states.states[
            this.states.orient(
              this.resolve(entry, () => `${path()}[${i}]`),
              o,
            )
          ]!,
        );
      }
    });
    const key = { ids: [...ids].sort(), states: [...exact].sort() };
    const text = JSON.stringify(key);
    let index = this.filterIndex.get(text);
    if (index === undefined) {
      this.filters.push(key);
      index = this.filters.length;
      if (index > 0xffff) throw budget("too many distinct source filters", { limit: 0xffff });
      this.filterIndex.set(text, index);
    }
    return index;
  }

  private shapeOf(op: Operation, make: () => Shape): Shape {
    let shape = this.shapes.get(op);
    if (shape === undefined) this.shapes.set(op, (shape = make()));
    return shape;
  }

  private groupsOf<G>(op: Operation, make: () => G): G {
    if (!this.groups.has(op)) this.groups.set(op, make());
    return this.groups.get(op) as G;
  }

  private materialOf(op: Operation, ref: BlockRef, o: Orientation, path: Path): Material {
    let byOrientation = this.opMaterials.get(op);
    if (byOrientation === undefined) this.opMaterials.set(op, (byOrientation = []));
    const k = (o.mirrorX ? 4 : 0) + o.turns;
    return (byOrientation[k] ??= this.material(ref, o, path));
  }

  private addLeaf(shape: Shape, frame: Frame, m: Material, filter: number, path: Path, box?: { mode: BoxMode }): void {
    const limits = this.limits;
    if (++this.instances > limits.maxOperations) {
      throw budget(`more than ${limits.maxOperations} operation instances after expanding repeats`, { limit: limits.maxOperations, path: path() });
    }
    const count = shape.count;
    if (count > limits.maxBlocks) {
      throw budget(
        `operation writes ${count} blocks; a plan may change at most ${limits.maxBlocks}: split the design into parts, one prepare each (walls, floors, roof)`,
        {
          ways_out: ["split_into_parts"],
          limit: limits.maxBlocks,
          requested: count,
          path: path(),
        },
      );
    }
    this.emitted += count;
    if (this.emitted > limits.maxEmitted) {
      throw budget(`recipe emits more than ${limits.maxEmitted} positions: split the design into parts, one prepare each`, {
        ways_out: ["split_into_parts"],
        limit: limits.maxEmitted,
        path: path(),
      });
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
    this.bounds = this.bounds === null ? wb : boxUnion(this.bounds, wb);
    this.leaves.push(box === undefined ? { shape, frame, material: m, filter } : { shape, frame, material: m, filter, worldBox: { box: wb, mode: box.mode } });
  }

  /** A shape less its exclude boxes; the base is counted first so an oversize base is refused unscanned. */
  private without(shape: Shape, exclude: readonly { min: Vec3; max: Vec3 }[] | undefined, path: Path): Shape {
    if (exclude === undefined) return shape;
    if (shape.count > this.limits.maxEmitted)
      throw budget(`operation covers more than ${this.limits.maxEmitted} positions before its exclusions`, { limit: this.limits.maxEmitted, path: path() });
    return excludeShape(
      shape,
      exclude.map((b) => boxShape(b.min, b.max, "solid").box),
    );
  }

  walk(ops: readonly Operation[], frame: Frame, depth: number, path: Path): void {
    if (depth > this.limits.maxDepth)
      throw budget(`repeat/transform nesting deeper than ${this.limits.maxDepth}`, { limit: this.limits.maxDepth, path: path() });
    ops.forEach((op, i) => this.operation(op, frame, depth, () => `${path()}[${i}]`));
  }

  private operation(op: Operation, frame: Frame, depth: number, p: Path): void {
    const block = (): string => `${p()}.block`;
    const o = frame.orientation;
    switch (op.type) {
      case "box": {
        const mode = boxMode(op.hollow);
        const shape = this.shapeOf(op, () => this.without(boxShape(op.min, op.max, mode), op.exclude, p));
        this.addLeaf(shape, frame, this.materialOf(op, op.block, o, block), 0, p, op.exclude === undefined ? { mode } : undefined);
        break;
      }
      case "replace": {
        const shape = this.shapeOf(op, () => this.without(boxShape(op.min, op.max, "solid"), op.exclude, p));
        this.addLeaf(
          shape,
          frame,
          this.materialOf(op, op.block, o, block),
          this.filterFor(op.from, o, () => `${p()}.from`),
          p,
          op.exclude === undefined ? { mode: "solid" } : undefined,
        );
        break;
      }
      case "line":
        this.plainLeaf(op, () => lineShape(op.from, op.to), frame, p);
        break;
      case "cylinder":
        this.plainLeaf(op, () => this.without(cylinderShape(op.center, op.radius, op.height, op.hollow === true, op.axis ?? "y"), op.exclude, p), frame, p);
        break;
      case "blocks":
        for (const g of this.groupsOf(op, () => listedGroups(op, p)))
          this.addLeaf(
            g.shape,
            frame,
            this.material(g.ref, o, () => `${p()}.blocks[${g.first}].block`),
            0,
            p,
          );
        break;
      case "roof":
        for (const g of this.groupsOf(op, () => roofGroups(op, this.limits, p)))
          this.addLeaf(
            g.shape,
            frame,
            g.ref === undefined ? this.material(pieceState(this.registry, op, g.piece, p), o, p) : this.material(g.ref, o, () => `${p()}.gable_block`),
            0,
            p,
          );
        break;
      case "arch":
        this.plainLeaf(op, () => boundedArch(op, p), frame, p);
        break;
      case "repeat":
        this.repeat(op, frame, depth, p);
        break;
      case "transform": {
        const local = transformFrame(orientationOf(op.rotate ?? 0, op.mirror), op.anchor ?? { x: 0, y: 0, z: 0 }, op.translate ?? { x: 0, y: 0, z: 0 });
        this.walk(op.operations, composeFrame(frame, local), depth + 1, () => `${p()}.operations`);
        break;
      }
      default:
        unhandled(op); // every operation of the schema has its case: one added without a case here is a compile error
    }
  }

  /** A shape written whole in one block (a line, a cylinder, an arch). */
  private plainLeaf(op: Extract<Operation, { type: "line" | "cylinder" | "arch" }>, shape: () => Shape, frame: Frame, p: Path): void {
    this.addLeaf(
      this.shapeOf(op, shape),
      frame,
      this.materialOf(op, op.block, frame.orientation, () => `${p()}.block`),
      0,
      p,
    );
  }

  /** A repeat: its operations `count` times, each copy moved by `offset` more (instances counted against the limit). */
  private repeat(op: Extract<Operation, { type: "repeat" }>, frame: Frame, depth: number, p: Path): void {
    const projected = this.instances + op.count;
    if (projected > this.limits.maxOperations) {
      throw budget(`more than ${this.limits.maxOperations} operation instances after expanding repeats`, { limit: this.limits.maxOperations, path: p() });
    }
    for (let k = 0; k < op.count; k++) {
      const child = composeFrame(frame, translation(op.offset.x * k, op.offset.y * k, op.offset.z * k));
      this.walk(op.operations, child, depth + 1, () => `${p()}.operations`);
    }
  }
}

function unhandled(op: never): never {
  throw new Error(`no lowering for operation ${JSON.stringify((op as { type?: unknown }).type)}`);
}

/** An arch's shape, refused when its plane is larger than `MAX_ARCH_PLANE` cells. */
function boundedArch(op: Extract<Operation, { type: "arch" }>, p: Path): Shape {
  const arch = archShape(op.min, op.max, op.axis, op.thickness ?? 1);
  if (arch.planeArea > MAX_ARCH_PLANE) throw budget(`arch plane larger than ${MAX_ARCH_PLANE} cells`, { limit: MAX_ARCH_PLANE, path: p() });
  return arch;
}

/** Listed blocks, one shape per distinct block (in order of first appearance); a position listed twice is refused. */
function listedGroups(op: BlocksOp, path: Path): Array<{ shape: Shape; ref: BlockRef; first: number }> {
  const seen = new Set<string>();
  const groups = new Map<string, { xyz: number[]; ref: BlockRef; first: number }>();
  op.blocks.forEach((b, i) => {
    const at = `${b.x},${b.y},${b.z}`;
    if (seen.has(at))
      throw new LoweringFailure(
        mcbError("invalid_request", `position ${at} is listed twice`, { reason: "duplicate_position", path: `${path()}.blocks[${i}]` }),
      );
    seen.add(at);
    const key = JSON.stringify(b.block);
    let g = groups.get(key);
    if (g === undefined) groups.set(key, (g = { xyz: [], ref: b.block, first: i }));
    g.xyz.push(b.x, b.y, b.z);
  });
  return [...groups.values()].map((g) => ({ shape: pointsShape(Int32Array.from(g.xyz)), ref: g.ref, first: g.first }));
}

/** Operation objects as written, nested ones included (repeat counts are not multiplied in). */
function countOperations(ops: readonly Operation[]): number {
  let n = 0;
  for (const op of ops) n += 1 + (op.type === "repeat" || op.type === "transform" ? countOperations(op.operations) : 0);
  return n;
}
