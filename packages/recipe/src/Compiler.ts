import { fail, jsonShapeError, mcbError, ok, schemaError, type BlockRegistry, type Result } from "@mcb/blocks";
import { z } from "zod";
import { createCollector } from "./BlockCollector.js";
import type { BlockCollector, RawRuns } from "./Collector.js";
import { CollectorScratch } from "./RowCollector.js";
import { pointMapper, spanMapper, type Frame } from "./Frame.js";
import { DEFAULT_LIMITS, type CompileLimits } from "./Limits.js";
import { lowerRecipe, type Leaf } from "./Lowering.js";
import { pick } from "./Material.js";
import { boxSlabs } from "./shapes/BoxShape.js";
import type { Plan } from "./Plan.js";
import { finishPlan } from "./PlanAssembly.js";
import { RecipeSchema, Vec3Schema, type Vec3 } from "./RecipeSchema.js";

export interface CompileOptions {
  readonly limits?: Partial<CompileLimits>;
  /** Read dependencies: positions whose current state the plan relies on (supports, clear passages). */
  readonly dependencies?: readonly Vec3[];
}

/**
 * Compiles an untrusted recipe value into a deterministic plan. Errors (nothing allocated beyond
 * the walk): `invalid_request` (shape, schema, unknown palette), `unsupported_block` (state, with
 * `details.path`), `out_of_bounds`, `budget_exceeded` (`details.stage` "preflight" before any
 * position is emitted, "compile" when the deduplicated count is over `maxBlocks`).
 */
export function compileRecipe(registry: BlockRegistry, input: unknown, options: CompileOptions = {}): Result<Plan> {
  return compileWith(registry, new CollectorScratch(), input, options);
}

/** A compiler that keeps its scratch memory between calls: use one per long-lived process. */
export interface RecipeCompiler {
  readonly registry: BlockRegistry;
  compile(input: unknown, options?: CompileOptions): Result<Plan>;
}

export function createRecipeCompiler(registry: BlockRegistry): RecipeCompiler {
  const scratch = new CollectorScratch();
  return { registry, compile: (input, options = {}) => compileWith(registry, scratch, input, options) };
}

function compileWith(registry: BlockRegistry, scratch: CollectorScratch, input: unknown, options: CompileOptions): Result<Plan> {
  const limits: CompileLimits = { ...DEFAULT_LIMITS, ...options.limits };
  const tooLarge = jsonShapeError(input, "recipe");
  if (tooLarge !== null) return fail(tooLarge);
  const parsed = RecipeSchema.safeParse(input);
  if (!parsed.success) return fail(schemaError("recipe", parsed.error.issues));
  const recipe = parsed.data;

  const deps = options.dependencies ?? [];
  if (deps.length > limits.maxDependencies) {
    return fail(mcbError("budget_exceeded", `more than ${limits.maxDependencies} dependencies`, { stage: "preflight", limit: limits.maxDependencies }));
  }
  const depsParsed = z.array(Vec3Schema).safeParse(deps);
  if (!depsParsed.success) return fail(schemaError("dependencies", depsParsed.error.issues));

  const lowered = lowerRecipe(registry, recipe, limits, recipe.seed ?? 0);
  if (!lowered.ok) return lowered;
  const { leaves, bounds, emitted, states, filters } = lowered.value;

  let raw: RawRuns = { y: new Int32Array(0), z: new Int32Array(0), x: new Int32Array(0), length: new Int32Array(0), value: new Uint32Array(0), count: 0 };
  if (bounds !== null) {
    const collector = createCollector(bounds, emitted, scratch);
    for (const leaf of leaves) emitLeaf(collector, leaf);
    raw = collector.toRuns();
  }
  if (raw.count > limits.maxBlocks) {
    return fail(
      mcbError(
        "budget_exceeded",
        `plan changes ${raw.count} blocks; the limit is ${limits.maxBlocks}: split the design into parts, one prepare each (walls, floors, roof)`,
        {
          stage: "compile",
          ways_out: ["split_into_parts"],
          limit: limits.maxBlocks,
          requested: raw.count,
        },
      ),
    );
  }

  return ok(finishPlan(registry, raw, states.states, filters, depsParsed.data));
}

/**
 * Puts one leaf's blocks into the collector: world boxes as slabs, shapes with x-runs as intervals
 * when the frame keeps x along ±x, others position by position (mapped through the frame unless it
 * is the identity). A palette material picks per position.
 */
function emitLeaf(collector: BlockCollector, leaf: Leaf): void {
  const world = new Int32Array(4);
  const shift = leaf.filter * 0x10000;
  const m = leaf.material;
  if (leaf.worldBox !== undefined) {
    for (const slab of boxSlabs(leaf.worldBox.box, leaf.worldBox.mode)) {
      if (m.kind === "state") collector.fillBox(slab, shift + m.value);
      else collector.fillBoxPalette(slab, m, shift);
    }
    return;
  }
  const spans = leaf.shape.emitSpans === undefined ? null : spanMapper(leaf.frame);
  if (spans !== null) {
    // Shapes with x-runs (cylinders, arches, lines) go in as intervals when the frame keeps x along ±x.
    if (m.kind === "state") {
      const value = shift + m.value;
      leaf.shape.emitSpans!((x0, x1, y, z) => {
        spans(x0, x1, y, z, world);
        collector.putSpan(world[0]!, world[1]!, world[2]!, world[3]!, value);
      });
    } else {
      leaf.shape.emitSpans!((x0, x1, y, z) => {
        spans(x0, x1, y, z, world);
        collector.putSpanPalette(world[0]!, world[1]!, world[2]!, world[3]!, m, shift);
      });
    }
    return;
  }
  if (isIdentity(leaf.frame)) {
    if (m.kind === "state") {
      const value = shift + m.value;
      leaf.shape.emit((x, y, z) => collector.put(x, y, z, value));
    } else {
      leaf.shape.emit((x, y, z) => collector.put(x, y, z, shift + pick(m, x, y, z)));
    }
    return;
  }
  const map = pointMapper(leaf.frame);
  if (m.kind === "state") {
    const value = shift + m.value;
    leaf.shape.emit((x, y, z) => {
      map(x, y, z, world);
      collector.put(world[0]!, world[1]!, world[2]!, value);
    });
  } else {
    leaf.shape.emit((x, y, z) => {
      map(x, y, z, world);
      const wx = world[0]!;
      const wy = world[1]!;
      const wz = world[2]!;
      collector.put(wx, wy, wz, shift + pick(m, wx, wy, wz));
    });
  }
}

function isIdentity(f: Frame): boolean {
  return !f.orientation.mirrorX && f.orientation.turns === 0 && f.ox === 0 && f.oy === 0 && f.oz === 0;
}
